/**
 * Entry of dist/widget.js: defines the custom elements (each guarded against a second
 * definition) and mounts a widget for every <script src=".../widget.js"> tag on the page.
 */
import "./quoteForm.ts";
import "./directory.ts";
import "./reviews.ts";
import { start } from "./loader.ts";

start();
