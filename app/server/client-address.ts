import { isIPv6 } from "node:net";

/**
 * The client as rate limits count it: an IPv4 address as it is (an IPv4-mapped IPv6 one too), an IPv6 address
 * by its /64 network. One subscriber line holds a whole /64 and can draw a fresh address from it for every
 * request, so counting single IPv6 addresses would give each attempt a counter of its own.
 */
export function clientForLimits(address: string | undefined): string {
  if (!address) return "unknown";
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i.exec(address);
  if (mapped?.[1]) return mapped[1];
  const plain = address.split("%")[0] ?? address;
  if (!isIPv6(plain)) return address;
  const [head = "", tail] = plain.split("::");
  const groupsOf = (part: string) =>
    part === ""
      ? []
      : part.split(":").flatMap((group) => (group.includes(".") ? ["0", "0"] : [group]));
  const left = groupsOf(head);
  const right = tail === undefined ? [] : groupsOf(tail);
  const groups = [...left, ...Array<string>(8 - left.length - right.length).fill("0"), ...right];
  const network = groups.slice(0, 4).map((group) => Number.parseInt(group, 16).toString(16));
  return `${network.join(":")}::/64`;
}
