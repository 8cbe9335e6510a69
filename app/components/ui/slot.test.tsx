import { createRef } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it, vi } from "vitest";
import { Button } from "./button";
import { Slot } from "./slot";

describe("Slot", () => {
  it("renders a Button asChild as its child element, with the button's classes joined to the child's", () => {
    const html = renderToStaticMarkup(
      <Button asChild variant="gold" size="lg" className="mt-8">
        <a href="/contact" className="underline">
          Nous contacter
        </a>
      </Button>,
    );
    expect(html).toMatch(/^<a href="\/contact" class="[^"]*bg-gold[^"]*h-13[^"]* mt-8 underline">/);
    expect(html).not.toContain("<button");
  });

  it("runs the child's handler then the slot's, and gives the element to both refs", () => {
    const calls: string[] = [];
    const slotRef = createRef<HTMLAnchorElement>();
    const childRef = vi.fn();
    const element = Slot({
      onClick: () => calls.push("slot"),
      ref: slotRef,
      style: { color: "red", margin: 0 },
      children: (
        <a href="/" onClick={() => calls.push("child")} ref={childRef} style={{ color: "blue" }}>
          x
        </a>
      ),
    });
    const props = (element as { props: Record<string, unknown> }).props;
    (props.onClick as () => void)();
    expect(calls).toEqual(["child", "slot"]);
    expect(props.style).toEqual({ color: "blue", margin: 0 });
    const node = {} as HTMLAnchorElement;
    (props.ref as (node: HTMLAnchorElement) => void)(node);
    expect(slotRef.current).toBe(node);
    expect(childRef).toHaveBeenCalledWith(node);
  });
});
