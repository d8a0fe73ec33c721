// viewsmenu.js: on a phone the view tabs fold into one button that names the view shown
// ("Evaluate ▾"), so that the sticky top bar is one row and leaves the screen to the view. The
// button is a disclosure (aria-expanded, aria-controls) that shows the tabs as a list under the top
// bar; they stay the page's tabs (app.js): a click, Enter or Space picks one and closes the list,
// the arrow keys move between them, Escape closes the list and gives the focus back to the button,
// as do a click elsewhere and the focus leaving it. On a wider screen CSS hides the button and
// shows the tabs in their row; nothing here changes them.

import { ref } from "../lib/dom.js";

/**
 * mountViewsMenu wires the top bar's views button to its tabs. sync(view) names view on the button.
 * @param {Document} doc
 * @returns {{sync: (view: string) => void}}
 */
export function mountViewsMenu(doc) {
  const bar = /** @type {HTMLElement} */ (doc.querySelector(".topbar"));
  const button = ref(doc, "views-button");
  const current = ref(doc, "views-current");
  const tabs = ref(doc, "tabs");
  const isOpen = () => bar.classList.contains("views-open");

  function open() {
    bar.classList.add("views-open");
    button.setAttribute("aria-expanded", "true");
    /** @type {HTMLElement|null} */ (tabs.querySelector('[aria-selected="true"]') || tabs.querySelector('[role="tab"]'))?.focus();
  }

  /** @param {boolean} focusButton */
  function close(focusButton) {
    if (!isOpen()) return;
    bar.classList.remove("views-open");
    button.setAttribute("aria-expanded", "false");
    if (focusButton) button.focus();
  }

  button.addEventListener("click", () => (isOpen() ? close(false) : open()));
  // After app.js's handler on the tab itself has shown the view (the click reaches the list after it).
  tabs.addEventListener("click", (e) => {
    if (isOpen() && /** @type {HTMLElement} */ (e.target).closest('[role="tab"]')) close(true);
  });
  tabs.addEventListener("keydown", (e) => {
    if (e.key === "Escape" && isOpen()) {
      e.preventDefault();
      close(true);
    }
  });
  tabs.addEventListener("focusout", (e) => {
    const to = /** @type {Node|null} */ (e.relatedTarget);
    if (isOpen() && to && !tabs.contains(to) && to !== button) close(false);
  });
  doc.addEventListener("click", (e) => {
    if (isOpen() && !bar.contains(/** @type {Node} */ (e.target))) close(false);
  });

  return {
    sync(view) {
      const tab = tabs.querySelector(`[role="tab"][data-view="${CSS.escape(view)}"]`);
      current.textContent = tab ? tab.textContent || view : view;
    },
  };
}
