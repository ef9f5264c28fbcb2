import { css, html } from "lit";

/**
 * Loading placeholders that take the room the answer will take, so the partner's page does not
 * jump when data arrives (layout shift, measured in test/e2e/widget-profile.browser.test.ts).
 * A skeleton is the widget's own markup with grey bones for text: the same classes give it the
 * same box. It is inert and hidden from screen readers; the live region says "Loading…".
 */
export const skeletonStyles = css`
  .skeleton {
    pointer-events: none;
  }
  .bone {
    display: inline-block;
    vertical-align: middle;
    width: 100%;
    height: 0.9em;
    border-radius: 4px;
    background: var(--_border);
    opacity: 0.6;
    animation: bw-pulse 1.2s ease-in-out infinite alternate;
  }
  .bone.short {
    width: 40%;
  }
  .bone.half {
    width: 60%;
  }
  .bone.round {
    width: 56px;
    height: 56px;
    border-radius: 50%;
    flex: none;
  }
  @keyframes bw-pulse {
    to {
      opacity: 0.3;
    }
  }
  @media (prefers-reduced-motion: reduce) {
    .bone {
      animation: none;
    }
  }
`;

/** A grey bar standing for a line of text ("" full width, "half", "short"). */
export function bone(size: "" | "half" | "short" | "round" = "") {
  return html`<span class="bone ${size}" aria-hidden="true"></span>`;
}

/** `count` copies of a placeholder, at least one. */
export function repeat<T>(count: number | undefined, make: (i: number) => T): T[] {
  return Array.from({ length: Math.max(1, count ?? 1) }, (_, i) => make(i));
}
