/** Entry of the console bundle (/console/console.js): defines <bd-console> and its pages. */
import "./consoleApp.ts";
