import { describe, expect, it } from "vitest";
import { clientForLimits } from "./client-address";

describe("clientForLimits", () => {
  it("keeps an IPv4 address, also when Node gives it IPv4-mapped", () => {
    expect(clientForLimits("203.0.113.7")).toBe("203.0.113.7");
    expect(clientForLimits("::ffff:203.0.113.7")).toBe("203.0.113.7");
    expect(clientForLimits("::FFFF:127.0.0.1")).toBe("127.0.0.1");
  });

  it("counts an IPv6 address by its /64: every address of one line is one client", () => {
    const network = "2001:db8:85a3:8d3::/64";
    expect(clientForLimits("2001:db8:85a3:8d3:1319:8a2e:370:7348")).toBe(network);
    expect(clientForLimits("2001:0db8:85a3:08d3::1")).toBe(network);
    expect(clientForLimits("2001:db8:85a3:8d3:ffff::")).toBe(network);
    expect(clientForLimits("2001:db8:85a3:8d4::1")).not.toBe(network);
    expect(clientForLimits("fe80::1%eth0")).toBe("fe80:0:0:0::/64");
    expect(clientForLimits("::1")).toBe("0:0:0:0::/64");
    expect(clientForLimits("2001:db8::")).toBe("2001:db8:0:0::/64");
  });

  it("leaves anything else as it is", () => {
    expect(clientForLimits(undefined)).toBe("unknown");
    expect(clientForLimits("unknown")).toBe("unknown");
  });
});
