// The collection view: a collection file the user gives (dropped, or opened with the file picker) is
// read by the server as check-cards reads it, and listed card by card with its verdict and figure,
// filtered by outcome; a card opens in the form to be edited; the deck is judged as check-cards --deck
// judges it; the collection with its edits is downloaded as migrate writes it (a YAML file keeps its
// comments and layout).

import {debounce, el, fill, post, save, upload} from "./dom.js";

const SHOWN = 200; // rows drawn at once (more on asking)

export class CollectionView {
  /** ``edit(index, card)`` opens a card in the form; ``ctx()`` gives the edition and its system. */
  constructor(root, edit, ctx) {
    this.root = root;
    this.edit = edit;
    this.ctx = ctx;
    this.held = null; // {id, name, format, cards: [{index, line, card, problems}]}
    this.check = null; // check-cards --deck --format json
    this.asked = 0; // checks asked for: only the latest one's answer is shown (answers may come out of order)
    this.edits = {};
    this.limit = SHOWN;
    this.status = root.querySelector("#collection-status");
    this.table = root.querySelector("#collection-table");
    this.filter = root.querySelector("#collection-filter");
    this.deck = root.querySelector("#deck");
    this.recheck = debounce(() => this.checkAgain(), 250);
    const input = root.querySelector("#collection-file");
    input.addEventListener("change", () => input.files[0] && this.open(input.files[0]));
    const zone = root.querySelector("#drop-zone");
    for (const name of ["dragenter", "dragover"]) zone.addEventListener(name, (e) => { e.preventDefault(); zone.classList.add("over"); });
    zone.addEventListener("dragleave", () => zone.classList.remove("over"));
    zone.addEventListener("drop", (e) => {
      e.preventDefault();
      zone.classList.remove("over");
      if (e.dataTransfer.files[0]) this.open(e.dataTransfer.files[0]);
    });
    this.filter.addEventListener("change", () => { this.limit = SHOWN; this.render(); });
    root.querySelector("#collection-download").addEventListener("click", () => this.download());
  }

  async open(file) {
    fill(this.status, `Reading ${file.name}…`);
    try {
      this.take(await upload("/api/collection", {name: file.name, edition: this.ctx().edition}, await file.arrayBuffer()));
    } catch (error) {
      const p = error.answer && error.answer.error;
      fill(this.status, el("span", {class: "error", role: "alert"}, p && p.line
        ? `${p.file}:${p.line}${p.column ? `:${p.column}` : ""}: ${p.message}${p.hint ? ` (hint: ${p.hint})` : ""}`
        : `${file.name}: ${error.message}`));
    }
  }

  /** A collection as the server read it (also the one given on the command line). */
  take(held) {
    this.asked++;
    this.held = held;
    this.check = held.check;
    this.edits = {};
    this.limit = SHOWN;
    this.root.querySelector("#collection-download").disabled = false;
    this.render();
    this.root.dispatchEvent(new Event("taken")); // (a card of another collection in the form is none of this one's)
  }

  /** The card at ``index`` now reads ``card`` (edited in the form; a card as it was given is no edit). */
  edited(index, card) {
    const given = JSON.stringify(card) === JSON.stringify(this.held.cards[index].card);
    if (given && !(index in this.edits)) return;
    if (given) delete this.edits[index];
    else this.edits[index] = card;
    this.recheck();
  }

  async checkAgain() {
    if (!this.held) return;
    const asked = ++this.asked;
    const check = await post("/api/check", {collection: this.held.id, edits: this.edits, edition: this.ctx().edition});
    if (asked !== this.asked) return; // a later check (or another collection) has been asked for since
    this.check = check;
    this.render();
  }

  render() {
    if (!this.held || !this.check) return;
    const {system, names} = this.ctx();
    const verdicts = this.check.cards;
    const s = this.check.summary;
    const word = (status) => (status === "banned" ? system.words.banned || "banned" : status);
    const wanted = this.filter.value;
    const outcomes = ["legal", "banned", "error", "unknown"].map((st) => { // each status's cards by their outcome
      const words = new Map([[word(st), 0]]); // ("4 pruned, 1 invalid": both banned)
      for (const v of verdicts) if (v.status === st) words.set(v.outcome, (words.get(v.outcome) || 0) + 1);
      return [st, [...words].filter(([, n]) => n)];
    });
    fill(this.filter, el("option", {value: ""}, `every card (${s.cards})`),
      outcomes.map(([st, words]) => el("option", {value: st, selected: st === wanted, disabled: !s[st]},
        `${words.length ? words.map(([w]) => w).join(" or ") : word(st)} (${s[st]})`)));
    const rows = verdicts.filter((v) => !wanted || v.status === wanted);
    const figure = system.figure;
    fill(this.status, `${this.held.name}: ${s.cards} cards judged in the ${names[this.check.edition]} edition — `,
      outcomes.flatMap(([, words]) => words.map(([w, n]) => `${n} ${w}`)).join(", "),
      Object.keys(this.edits).length ? ` (${Object.keys(this.edits).length} edited)` : "");
    fill(this.table,
      el("caption", {class: "visually-hidden"}, `The cards of ${this.held.name}`),
      el("thead", {}, el("tr", {}, ["#", "card", "type", "Edition Indicator", figure, `printed ${figure}`, "verdict", "why"]
        .map((h) => el("th", {scope: "col"}, h)))),
      el("tbody", {}, rows.slice(0, this.limit).map((v) => {
        const entry = this.held.cards[v.index];
        const card = this.edits[v.index] || entry.card || {};
        return el("tr", {data: {index: v.index, status: v.status}, class: this.edits[v.index] ? "edited" : ""},
          el("td", {}, v.index + 1), // (numbered from 1, as check-cards numbers them)
          el("td", {}, entry.card ? el("button", {type: "button", class: "open-card",
                                                   onclick: () => this.edit(v.index, card)}, v.name ?? "(no name)")
                                  : "(unreadable)"),
          el("td", {}, typeof card.type === "string" ? card.type : ""),
          el("td", {}, card.edition ?? ""),
          el("td", {class: "number"}, v[figure] ?? "—"),
          el("td", {class: "number"}, v[`printed_${figure}`] ?? ""),
          el("td", {class: `status-${v.status}`}, v.outcome),
          el("td", {class: "codes"}, [...new Set(v.reasons.map((r) => r.code))].join(", ")));
      })));
    const more = this.root.querySelector("#collection-more");
    more.hidden = rows.length <= this.limit;
    more.onclick = () => { this.limit += SHOWN; this.render(); };
    this.renderDeck(this.check.deck, system);
  }

  renderDeck(deck, system) {
    if (!deck) return;
    const ultra = deck.ultra_limit === null ? null : deck.ultra_points === null ? `Ultra Points unknown (at most ${deck.ultra_limit})`
      : `${deck.ultra_points} Ultra Points (at most ${deck.ultra_limit})`;
    const [status, says] = {true: ["legal", "legal"], false: ["banned", "not legal"], null: ["unknown", "legality unknown"]}[deck.legal];
    fill(this.deck,
      el("p", {class: `says status-${status}`, id: "deck-verdict", data: {legal: deck.legal}},
        `As a deck: ${deck.cards} card${deck.cards === 1 ? "" : "s"}${ultra ? `, ${ultra}` : ""} — ${says}`),
      deck.problems.length ? el("ul", {class: "reasons"}, deck.problems.map((p) => el("li", {}, p))) : null,
      deck.notes.length ? el("ul", {class: "notes"}, deck.notes.map((n) => el("li", {}, n))) : null);
  }

  async download() {
    if (!this.held) return;
    const blob = await post("/api/download", {collection: this.held.id, edits: this.edits, edition: this.ctx().edition});
    save(blob, this.held.name);
  }
}
