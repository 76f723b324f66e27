// Giftwell's only script: copy buttons for one-time secrets; a page that
// shows one replaces its history entry with the page's own address, so that
// reloading it reads the page again instead of resending the form; a form
// marked data-auto-submit (the launch page's next step) submits itself; and
// a form's error summary takes the focus, each of its links focusing its
// field (the page works without it: the links still scroll to the field).
"use strict";
const once = document.querySelector("[data-shown-once]");
if (once) history.replaceState(null, "", once.dataset.shownOnce);

document.addEventListener("click", async (event) => {
  const button = event.target.closest("button[data-copy]");
  if (!button) return;
  const id = button.dataset.copy;
  const value = document.getElementById(id).textContent;
  const status = document.querySelector(`[data-copy-status="${id}"]`);
  try {
    await navigator.clipboard.writeText(value);
    status.textContent = "Copied";
  } catch {
    window.getSelection().selectAllChildren(document.getElementById(id));
    status.textContent = "Press Ctrl+C (⌘C) to copy";
  }
});

const step = document.querySelector("form[data-auto-submit]");
if (step) setTimeout(() => step.requestSubmit(), 300);

const summary = document.querySelector("#problem[tabindex]");
if (summary) summary.focus();
summary?.addEventListener("click", (event) => {
  const link = event.target.closest("a[href^='#']");
  const input = link && document.getElementById(link.getAttribute("href").slice(1));
  if (!input) return;
  event.preventDefault();
  (input.closest(".field") || input).scrollIntoView();
  input.focus({ preventScroll: true });
});
