import { AlarmClockCheck, Mail, X, type LucideProps } from "lucide-react";
import * as alarmModule from "lucide-react/dist/esm/icons/alarm-clock-check.mjs";
import * as mailModule from "lucide-react/dist/esm/icons/mail.mjs";
import * as xModule from "lucide-react/dist/esm/icons/x.mjs";
import type { ComponentType } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import createLucideIcon from "./lucide-icon";

type IconData = Parameters<typeof createLucideIcon>[0];
// Each icon module exports the data it gives the runtime (its types do not say so).
const dataOf = (module: object) => (module as { __iconData: IconData }).__iconData;
const [alarmData, mailData, xData] = [alarmModule, mailModule, xModule].map(dataOf);

// The tests import lucide's own runtime (vitest does not use the build's plugin): the markup must match it.
const cases: Array<[string, ComponentType<LucideProps>, IconData | undefined]> = [
  ["x", X, xData],
  ["mail", Mail, mailData],
  ["alarm-clock-check (an icon with aliases)", AlarmClockCheck, alarmData],
];

const variants: Array<[string, LucideProps]> = [
  ["no props", {}],
  ["a class", { className: "size-5 shrink-0 lucide" }],
  ["a label", { "aria-label": "Fermer", role: "img" }],
  ["a size, colour and stroke", { size: 32, color: "red", strokeWidth: 1.5 }],
  ["an absolute stroke width", { size: 48, strokeWidth: 2, absoluteStrokeWidth: true }],
  ["a non-scaling stroke", { nonScalingStroke: true, "aria-hidden": true }],
];

describe("createLucideIcon (the build's icon runtime)", () => {
  for (const [name, Lucide, data] of cases) {
    for (const [variant, props] of variants) {
      it(`renders ${name} with ${variant} as lucide does`, () => {
        const Ours = createLucideIcon(data as IconData);
        expect(renderToStaticMarkup(<Ours {...props} />)).toBe(
          renderToStaticMarkup(<Lucide {...props} />),
        );
      });
    }
  }

  it("hides an unlabelled icon from assistive technologies and keeps a title child", () => {
    const Ours = createLucideIcon(xData as IconData);
    expect(renderToStaticMarkup(<Ours />)).toContain('aria-hidden="true"');
    const titled = renderToStaticMarkup(
      <Ours>
        <title>Fermer</title>
      </Ours>,
    );
    expect(titled).not.toContain("aria-hidden");
    expect(titled).toContain("<title>Fermer</title>");
    expect(titled).toBe(
      renderToStaticMarkup(
        <X>
          <title>Fermer</title>
        </X>,
      ),
    );
  });
});
