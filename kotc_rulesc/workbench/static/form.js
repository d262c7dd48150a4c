// The card form, shaped by the edition's card-building system as the server reads it from the rules:
// its card types, their stats (named as the edition names them), the printed figure (cost or level),
// the Edition Indicator, one box per ability (a paragraph of the card text) with its tutorial text.
// The page knows no card type, stat or kind by name.
//
// A card loaded into the form keeps every field it has; reading the form back changes only the
// fields whose input the user changed (a field cleared becomes null), so that an untouched card
// reads exactly as it was given.

import {el, fill} from "./dom.js";

// a sentence in parentheses (maybe in italics) closing the paragraph: its tutorial text
const TUTORIAL = /^(.*\S)\s+([*_]?)\(([^()]*)\)\2\s*$/s;

export class CardForm {
  /** ``root`` is the form element; ``changed`` is called after every change the user makes. */
  constructor(root, changed) {
    this.root = root;
    this.changed = changed;
    this.system = null;
    this.original = {};
    this.loaded = null;
    this.cleared = new Set(); // fields the form has no input for that the user took off the card
    this.lastBox = null; // the ability box the cursor was last in (where the palette inserts)
    root.addEventListener("input", () => this.changed());
    root.addEventListener("submit", (event) => event.preventDefault());
  }

  /** Shape the form for ``system`` (an edition's CardSystem) and put ``card`` in it. */
  show(system, card) {
    this.system = system;
    this.original = structuredClone(card);
    this.cleared = new Set();
    const s = system;
    const type = this.typeOf(card);
    const figureTitle = s.figure_title.charAt(0).toUpperCase() + s.figure_title.slice(1);
    const indicatorHint = {
      required: "required: a card without one is invalid in this edition",
      printed: "the edition the card was designed for",
      none: "this edition's cards print none: leave it empty",
    }[s.edition_indicator] || "the edition the card was designed for";
    fill(this.root,
      el("div", {class: "row"},
        field("Name", el("input", {id: "card-name", name: "name", value: str(card.name), required: true})),
        field("Type", el("select", {id: "card-type", name: "type", onchange: () => this.retype()},
          s.types.map((t) => el("option", {value: t.id, selected: t.id === type}, t.id))))),
      el("div", {class: "row"},
        field("Edition Indicator", el("input", {id: "card-edition", name: "edition", type: "number", min: 1,
                                                 inputmode: "numeric", value: str(card.edition),
                                                 "aria-describedby": "card-edition-hint"}),
              el("small", {id: "card-edition-hint"}, indicatorHint)),
        field(`Printed ${s.figure_title}`, el("input", {id: "card-figure", name: s.figure, type: "number", min: 0,
                                                         inputmode: "numeric", value: str(card[s.figure])}),
              el("small", {}, `optional: compared with the ${s.figure_title} computed`))),
      el("fieldset", {id: "card-stats", class: "row"}, el("legend", {}, "Stats")),
      el("fieldset", {id: "card-abilities"},
        el("legend", {}, "Abilities"),
        el("p", {class: "hint"}, abilityHint(s)),
        el("ol", {id: "ability-list"}),
        el("button", {type: "button", id: "add-ability", onclick: () => this.addBox("", true)}, "Add an ability")),
      field("Flavor text", el("input", {id: "card-flavor", name: "flavor", value: str(card.flavor)}),
            el("small", {}, "cosmetic: drawn on the picture, judged by no rule")),
    );
    this.showStats(card);
    const lines = typeof card.text === "string" ? card.text.replace(/\s+$/, "").split("\n") : [];
    for (const line of lines) this.addBox(line, false);
    if (!lines.length) this.addBox("", false);
    this.loaded = this.values();
  }

  typeOf(card) {
    const printed = String(card.type || "").trim().toLowerCase();
    const ids = this.system.types.map((t) => t.id);
    if (ids.includes(printed)) return printed;
    // another edition's word for one of this edition's types (the rulebook's words: creature → minion)
    const words = this.system.words;
    if (ids.includes(words[printed])) return words[printed];
    const alias = Object.entries(words).find(([word, type]) => type === printed && ids.includes(word));
    return alias ? alias[0] : ids[0];
  }

  currentType() {
    return this.system.types.find((t) => t.id === this.root.querySelector("#card-type").value) || this.system.types[0];
  }

  showStats(card) {
    const box = this.root.querySelector("#card-stats");
    const stats = this.currentType().stats;
    fill(box, el("legend", {}, stats.length ? "Stats" : "Stats (this type has none)"),
      stats.map((st) => field(st.name, el("input", {
        id: `card-stat-${st.name}`, name: st.name, type: "number", inputmode: "numeric", class: "stat",
        min: st.min ?? false, max: st.max ?? false, value: str(card[st.name]),
      }))));
    box.hidden = !stats.length;
  }

  retype() {
    this.showStats(this.original);
    this.changed();
  }

  /** A box for one paragraph of the card text: its ability text, tutorial text, and buttons. */
  addBox(paragraph, focus, after = null) {
    const list = this.root.querySelector("#ability-list");
    const m = TUTORIAL.exec(paragraph);
    // (its italics kept as written: the guides' "should be rendered in italics", *(…)*, for a new one)
    const [body, tutorial, italics] = m && /[.!?:]$/.test(m[1]) ? [m[1], m[3], m[2]] : [paragraph, "", "*"];
    const item = el("li", {class: "ability", data: {italics}});
    const text = el("textarea", {class: "ability-text", rows: 2, spellcheck: "false", "aria-label": "Ability text",
                                 onfocus: () => { this.lastBox = text; },
                                 onkeydown: (event) => { // Enter: the next paragraph, in a box of its own
                                   if (event.key !== "Enter" || event.shiftKey || event.isComposing) return;
                                   event.preventDefault();
                                   this.addBox("", true, item);
                                 }});
    text.value = body;
    const tutorialInput = el("input", {class: "ability-tutorial", value: tutorial, "aria-label": "Tutorial text"});
    const move = (by) => () => {
      const sibling = by < 0 ? item.previousElementSibling : item.nextElementSibling;
      if (!sibling) return;
      by < 0 ? sibling.before(item) : sibling.after(item);
      this.number();
      item.querySelector(by < 0 ? ".move-up" : ".move-down").focus();
      this.changed();
    };
    append(item, [
      el("label", {class: "ability-title"}, el("span", {class: "ability-number"}), text),
      el("label", {class: "tutorial"}, el("span", {}, "Tutorial text (in parentheses, italic)"), tutorialInput),
      el("div", {class: "ability-tools"},
        el("button", {type: "button", class: "move-up", onclick: move(-1)}, "Move up"),
        el("button", {type: "button", class: "move-down", onclick: move(1)}, "Move down"),
        el("button", {type: "button", class: "remove", onclick: () => {
          const next = item.nextElementSibling || item.previousElementSibling;
          item.remove();
          if (this.lastBox === text) this.lastBox = null;
          this.number();
          (next ? next.querySelector("textarea") : this.root.querySelector("#add-ability")).focus();
          this.changed();
        }}, "Remove")),
    ]);
    if (after) after.after(item);
    else list.append(item);
    this.number();
    if (focus) {
      text.focus();
      this.changed();
    }
    return text;
  }

  number() {
    const items = [...this.root.querySelectorAll("#ability-list > li")];
    items.forEach((li, i) => {
      li.querySelector(".ability-number").textContent = `Ability ${i + 1} (paragraph ${i + 1})`;
      li.querySelector(".ability-text").setAttribute("aria-label", `Ability ${i + 1}`);
      li.querySelector(".move-up").disabled = i === 0;
      li.querySelector(".move-down").disabled = i === items.length - 1;
      li.querySelector(".move-up").setAttribute("aria-label", `Move ability ${i + 1} up`);
      li.querySelector(".move-down").setAttribute("aria-label", `Move ability ${i + 1} down`);
      li.querySelector(".remove").setAttribute("aria-label", `Remove ability ${i + 1}`);
    });
  }

  boxes() {
    return [...this.root.querySelectorAll("#ability-list .ability-text")];
  }

  /** The box of paragraph ``n`` (1-based: the card text's line). */
  box(n) {
    return this.boxes()[n - 1] || null;
  }

  /** What the form shows, field by field (the text as the boxes make it). */
  values() {
    const get = (id) => this.root.querySelector(id);
    const out = {name: get("#card-name").value, type: get("#card-type").value, edition: get("#card-edition").value,
                 [this.system.figure]: get("#card-figure").value, flavor: get("#card-flavor").value};
    for (const input of this.root.querySelectorAll("#card-stats input")) out[input.name] = input.value;
    out.text = [...this.root.querySelectorAll("#ability-list > li")].map((li) => {
      const body = li.querySelector(".ability-text").value.trim().replace(/\s*\n\s*/g, " ");
      const tutorial = li.querySelector(".ability-tutorial").value.trim().replace(/^([*_]?)\((.*)\)\1$/s, "$2");
      return tutorial ? `${body} ${li.dataset.italics}(${tutorial})${li.dataset.italics}` : body;
    }).join("\n").replace(/\n+$/, "");
    return out;
  }

  /** Whether the form has an input for the card's field ``name`` ("text[2]": a paragraph of the text). */
  shows(name) {
    return name.split("[")[0] in this.values();
  }

  /** Take the field ``name``, which the form has no input for (another edition's stat), off the card. */
  clear(name) {
    this.cleared.add(name);
    this.changed();
  }

  /** The card the form shows: the card loaded, with the fields the user changed. */
  card() {
    const now = this.values();
    const card = structuredClone(this.original);
    const numeric = new Set(["edition", this.system.figure, ...this.system.types.flatMap((t) => t.stats.map((s) => s.name))]);
    for (const [name, value] of Object.entries(now)) {
      if (this.loaded && this.loaded[name] === value) continue; // untouched: as the card has it
      if (value === "") {
        if (name in card) card[name] = null;
        continue;
      }
      card[name] = numeric.has(name) && /^-?\d+$/.test(value.trim()) ? Number(value) : value;
    }
    for (const name of this.cleared) if (name in card) card[name] = null;
    // the stats of another type than the one chosen: a card of this type has none
    const own = new Set(this.currentType().stats.map((s) => s.name));
    for (const t of this.system.types) for (const s of t.stats) {
      if (!own.has(s.name) && card[s.name] !== undefined && card[s.name] !== null && this.loaded.type !== now.type) card[s.name] = null;
    }
    return card;
  }
}

function str(value) {
  return value === undefined || value === null ? "" : String(value);
}

function field(label, input, ...more) {
  return el("label", {class: "field"}, el("span", {}, label), input, ...more);
}

function append(node, children) {
  for (const child of children) node.append(child);
}

/** "One box per paragraph: an ability is activation condition, activation cost, then sub-abilities
 *  (target selection, effect), each one sentence." — the system's order of kinds, in its nouns. */
function abilityHint(system) {
  const noun = (id) => (system.kinds.find((k) => k.id === id) || {noun: id}).noun;
  let hint = `One box per paragraph of the card text (Enter adds the next). An ability is, in this order: ${system.ability.map(noun).join(", ")}`;
  if (system.sub_ability.length) hint += `, then sub-abilities (${system.sub_ability.map(noun).join(", ")}), each one sentence`;
  hint += ". A NAME: in capitals names an ability.";
  const alone = system.kinds.filter((k) => k.place === "card").map((k) => `A ${k.noun}`);
  if (alone.length) hint += ` ${alone.join(", ")} stands alone, as the first paragraph.`;
  return hint;
}
