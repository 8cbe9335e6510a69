import { describe, expect, it } from "vitest";
import { answerStatus, type FormAnswer } from "./forms";

describe("a form's answer", () => {
  it("is a refusal to correct below 500 and a failure from 500", () => {
    expect([400, 409, 429, 500, 503].map(answerStatus)).toEqual([
      "invalid",
      "invalid",
      "invalid",
      "failed",
      "failed",
    ]);
  });

  it("keeps what was typed beside what only one form needs", () => {
    const answer: FormAnswer<{ alternatives: string[] }> = {
      status: answerStatus(409),
      values: { email: "lea@exemple.fr" },
      message: "Ce créneau vient d'être réservé.",
      alternatives: ["2026-12-01T10:00"],
    };
    expect(answer).toMatchObject({ status: "invalid", values: { email: "lea@exemple.fr" } });
  });
});
