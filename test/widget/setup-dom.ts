/**
 * Import this FIRST in every widget test file, then call useDom() at the file's top level.
 *
 * Order matters: dom.ts installs happy-dom's globals, then the widget modules are evaluated
 * (their Lit classes extend HTMLElement and define custom elements at that moment). bun test
 * evaluates each module once per run, so they are all loaded here, by whichever widget test
 * file runs first; the others find them cached and only reinstall the globals.
 */
export { installDom, removeDom, useDom } from "./dom.ts";
import "./dom.ts";
import "../../widget/quoteForm.ts";
import "../../widget/leadForm.ts";
import "../../widget/directory.ts";
import "../../widget/reviews.ts";
import "../../widget/brokerProfile.ts";
import "../../widget/profileDialog.ts";
