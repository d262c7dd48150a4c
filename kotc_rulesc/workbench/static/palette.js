// The component palette: the edition's components by kind (in the guide's order of sections), each
// with its formula, its limits and its Ultra Points, searchable by words; choosing one inserts its
// text, as a card prints it, where the cursor is in the card's text (the server renders it).

import {el, fill} from "./dom.js";

export class Palette {
  constructor(root, choose) {
    this.root = root;
    this.choose = choose;
    this.components = [];
    this.system = null;
    this.search = root.querySelector("#palette-search");
    this.kind = root.querySelector("#palette-kind");
    this.list = root.querySelector("#palette-list");
    this.search.addEventListener("input", () => this.render());
    this.kind.addEventListener("change", () => this.render());
    // the list is one stop of the Tab key; the arrow keys, Home and End move in it (a roving tabindex)
    this.list.addEventListener("keydown", (event) => {
      const buttons = [...this.list.querySelectorAll(".component")];
      const at = buttons.indexOf(document.activeElement);
      const to = {ArrowDown: at + 1, ArrowUp: at - 1, Home: 0, End: buttons.length - 1}[event.key];
      if (at < 0 || to === undefined || !buttons[to]) return;
      event.preventDefault();
      this.rove(buttons, to);
      buttons[to].focus();
    });
  }

  rove(buttons, at) {
    buttons.forEach((b, i) => b.setAttribute("tabindex", i === at ? "0" : "-1"));
  }

  show(system, components) {
    this.system = system;
    this.components = components;
    const chosen = this.kind.value;
    fill(this.kind, el("option", {value: ""}, "every kind"),
      system.kinds.map((k) => el("option", {value: k.id, selected: k.id === chosen}, k.title)));
    this.render();
  }

  render() {
    const words = this.search.value.toLowerCase().split(/\s+/).filter(Boolean);
    const kind = this.kind.value;
    const shown = this.components.filter((c) => (!kind || c.kind === kind)
      && words.every((w) => c.text.toLowerCase().includes(w) || c.id.includes(w)));
    const groups = this.system.kinds.map((k) => [k, shown.filter((c) => c.kind === k.id)]).filter(([, cs]) => cs.length);
    fill(this.list,
      el("p", {class: "hint", id: "palette-count", "aria-live": "polite"},
        `${shown.length} of ${this.components.length} components (the arrow keys move in the list)`),
      groups.map(([k, cs]) => el("section", {class: "palette-kind"},
        el("h3", {}, k.title),
        el("ul", {}, cs.map((c) => el("li", {},
          el("button", {type: "button", class: `component status-${c.status}`, data: {component: c.id},
                        title: c.status === "legal" ? `insert it at the cursor (${c.id})` : `${c.status} (${c.id})`,
                        onclick: () => this.choose(c)},
            el("span", {class: "component-text"}, c.text),
            el("span", {class: "component-facts"}, facts(c, k)))))))));
    this.rove([...this.list.querySelectorAll(".component")], 0);
  }
}

/** "= 2x · x ≤ 3 · [+1] Ultra": a component's formula (its kind's role: a kind without formulas has none),
 *  limits and Ultra Points. */
function facts(c, kind) {
  const out = [kind.role === "none" ? "no formula" : c.formula === null ? "formula unknown" : `= ${c.formula}`];
  for (const [v, limit] of Object.entries(c.limits)) out.push(limit === null ? `${v} ≤ unknown` : `${v} ≤ ${limit}`);
  if (c.ultra) out.push(`[+${c.ultra}] Ultra`);
  if (c.status !== "legal") out.push(c.status);
  return out.join(" · ");
}

/** Whether text inserted at ``at`` in ``text`` opens a sentence (its first letter capitalized):
 *  at the start, after an ability's NAME:, a sentence's end, an activation condition's colon or an
 *  activation cost's arrow; not after a semicolon or a comma, inside a sentence.  A component of the
 *  ability (``place`` "ability": an activation cost) opens it only where nothing but its NAME: is
 *  before it (the 12th-17th guides: capitalized if it "does not follow any activation condition"). */
export function opensSentence(text, at, place) {
  const before = text.slice(0, at).trimEnd();
  if (place === "ability") return before === "" || (/^[^:.;→()]+:$/.test(before) && before === before.toUpperCase());
  return before === "" || !/[;,]$/.test(before);
}

/** Put ``wording`` (the server's: its text and the spans of its values) into ``box`` at the cursor (or
 *  in place of ``[start, end)``), spaced from its neighbours, and select its first value. */
export function insertWording(box, wording, start = box.selectionStart, end = box.selectionEnd) {
  const text = box.value;
  const before = text.slice(0, start);
  const after = text.slice(end);
  const lead = before && !/\s$/.test(before) ? " " : "";
  const tail = after && !/^\s/.test(after) ? " " : "";
  box.value = before + lead + wording.text + tail + after;
  const at = before.length + lead.length;
  const first = Object.values(wording.spans).flat().sort((a, b) => a[0] - b[0])[0];
  box.focus();
  if (first) box.setSelectionRange(at + first[0], at + first[1]);
  else box.setSelectionRange(at + wording.text.length, at + wording.text.length);
  box.dispatchEvent(new Event("input", {bubbles: true}));
}
