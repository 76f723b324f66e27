// Giftwell's only script: copy buttons for one-time secrets; a page that
// shows one replaces its history entry with the page's own address, so that
// reloading it reads the page again instead of resending the form; and a
// form marked data-auto-submit (the launch page's next step) submits itself.
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
