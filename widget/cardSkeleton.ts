import { html } from "lit";
import { bone, repeat } from "./skeleton.ts";

/**
 * The server's default page of cards (EMBED_BROKERS_DEFAULT_LIMIT; test/widget/skeletons.test.ts
 * holds the two equal): written here, since importing the server's module would bring zod along.
 */
export const CARD_SKELETON_DEFAULT = 12;

/**
 * The directory while its first page loads: the count line, one grey card per card to come
 * (the cards have a fixed height) and the Show more row, in the real list's classes.
 */
export function renderCardSkeletons(count: number) {
  return html`<div class="skeleton" part="skeleton loading" aria-hidden="true" inert>
    <p class="muted count">${bone("short")}</p>
    <ul class="cards">
      ${repeat(count, () => html`<li>
        <div class="card">
          <div class="head">${bone("round")}<div class="place-holder">${bone("half")} ${bone("short")}</div></div>
          <div class="rating">${bone("half")}</div>
          <div>${bone("short")}</div>
        </div>
      </li>`)}
    </ul>
    <div class="actions more"></div>
  </div>`;
}
