import { describe, expect, it } from "vitest";
import { parseForm } from "~/lib/forms";
import { accountantMailForm, periodWords } from "./accountant-mail";

describe("the accountant's e-mail form", () => {
  it("names a whole month by its name, any other period by its days", () => {
    expect(periodWords({ from: "2026-11-01", to: "2026-11-30" })).toBe("novembre 2026");
    expect(periodWords({ from: "2028-02-01", to: "2028-02-29" })).toBe("février 2028");
    expect(periodWords({ from: "2026-11-01", to: "2026-11-29" })).toBe(
      "du 01/11/2026 au 29/11/2026",
    );
    expect(periodWords({ from: "2026-11-01", to: "2026-12-31" })).toBe(
      "du 01/11/2026 au 31/12/2026",
    );
  });

  it("refuses in French an address that is not one, or the monthly e-mail without an address", () => {
    expect(parseForm({ email: "cabinet@", envoiMensuel: "on" }, accountantMailForm)).toEqual({
      ok: false,
      values: { email: "cabinet@", envoiMensuel: "on" },
      errors: { email: "Cette adresse e-mail n'est pas valide (exemple : cabinet@exemple.fr)." },
    });
    expect(parseForm({ email: "  ", envoiMensuel: "on" }, accountantMailForm)).toMatchObject({
      ok: false,
      errors: {
        email: "Indiquez l'adresse de votre comptable : c'est là que partent les fichiers.",
      },
    });
    expect(parseForm({ email: " cabinet@exemple.fr " }, accountantMailForm)).toMatchObject({
      ok: true,
      data: { email: "cabinet@exemple.fr" },
    });
    expect(parseForm({ email: "" }, accountantMailForm)).toMatchObject({ ok: true });
  });
});
