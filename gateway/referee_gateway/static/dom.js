// Building elements without innerHTML: every text from the API lands as text, never markup.

/** h("button", {class: "move", onclick: f}, "text", child…) → a new element. */
export function h(tag, attributes = {}, ...children) {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (value === undefined || value === null || value === false) continue;
    if (name.startsWith("on")) element.addEventListener(name.slice(2), value);
    else if (name === "dataset") Object.assign(element.dataset, value);
    else element.setAttribute(name, value === true ? "" : String(value));
  }
  element.append(...children.flat().filter((c) => c !== null && c !== undefined && c !== false));
  return element;
}

/** A unique id for labels and error messages. */
let counter = 0;
export function uid(prefix) {
  counter += 1;
  return `${prefix}-${counter}`;
}

/** Say something to screen readers (the polite live region in index.html). */
export function announce(text) {
  const region = document.getElementById("announce");
  region.textContent = "";
  // a fresh text node in a later frame is what makes a screen reader read it again
  requestAnimationFrame(() => { region.textContent = text; });
}
