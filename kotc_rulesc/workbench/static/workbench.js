// The card workbench: the page's state and how its parts talk.  The edition picker chooses the rules;
// the form (form.js) is shaped by that edition's system; every change is judged by the server as you
// type (debounced) and shown (judgement.js); the palette (palette.js) inserts components; the
// collection view (collection.js) lists a collection's cards and opens one in the form.

import {debounce, editionName, el, fill, get, post, save} from "./dom.js";
import {CardForm} from "./form.js";
import {showBreakdown, showCurrent, showPicture, showVerdict} from "./judgement.js";
import {CollectionView} from "./collection.js";
import {Palette, insertWording, opensSentence} from "./palette.js";

const state = {
  editions: [],
  names: {},
  documents: {},
  current: null,
  edition: null,
  system: null,
  components: [],
  editing: null, // the index of the collection's card in the form, or null
  asked: 0, // the last judgement asked for: an older answer is dropped
  judged: "", // the card the verdict on the page is about (JSON): a suggestion applies to it alone
  svg: "",
};

const $ = (selector) => document.querySelector(selector);
const judgeSoon = debounce(() => judge(), 150);
// a collection's card in the form: the list (and the download) follows each change at once
const form = new CardForm($("#card-form"), () => {
  if (state.editing !== null) collection.edited(state.editing, form.card());
  judgeSoon();
});
const palette = new Palette($("#palette"), (component) => insertComponent(component));
const collection = new CollectionView($("#collection"), (index, card) => editCard(index, card),
  () => ({edition: state.edition, system: state.system, names: state.names}));

function context() {
  return {
    system: state.system, documents: state.documents, names: state.names, edition: state.edition, current: state.current,
    editionName: editionName(state.editions, state.edition),
    suggest: (unknown, component) => useSuggestion(unknown, component),
    use: (card, edition) => useCurrent(card, edition),
    shows: (field) => form.shows(field),
    clear: (field) => form.clear(field),
  };
}

function numberOf(key) {
  return state.editions.find((e) => String(e.key) === String(key)).number;
}

/** A card to start from in an edition: its first type, the edition's number as Edition Indicator. */
function blankCard(system = state.system) {
  const card = {name: "", type: system.types[0].id};
  if (system.edition_indicator !== "none") card.edition = numberOf(state.edition);
  return card;
}

/** Judge in edition ``key``: the form reshaped by its system, holding ``card`` (``build(system)``
 *  makes it; by default a blank card). */
async function setEdition(key, build = blankCard) {
  const answer = await get("/api/edition", {edition: key});
  state.edition = answer.edition.key;
  state.system = answer.system;
  state.components = answer.components;
  $("#edition").value = String(state.edition);
  form.show(state.system, build(state.system));
  palette.show(state.system, state.components);
  fill($("#figure-title"), state.system.figure_title);
  await judge();
}

async function judge() {
  const asked = ++state.asked;
  const card = form.card();
  let answer;
  try {
    answer = await post("/api/judge", {card, edition: state.edition});
  } catch (error) {
    if (asked === state.asked) fill($("#verdict"), el("p", {class: "error", role: "alert"}, error.message));
    return;
  }
  if (asked !== state.asked) return;
  state.judged = JSON.stringify(card);
  const ctx = context();
  const cost = showVerdict($("#verdict"), answer, ctx);
  showBreakdown($("#breakdown"), cost, state.system, state.names);
  showCurrent($("#current"), answer, ctx);
  state.svg = answer.picture;
  showPicture($("#picture"), answer.picture, card.name);
  document.body.dataset.judged = String(asked);
}

/** Put a component from the palette at the cursor of the ability box last used (a new box if none). */
async function insertComponent(component) {
  const box = form.lastBox && document.contains(form.lastBox) ? form.lastBox : (form.boxes().at(-1) || form.addBox("", false));
  const start = box.selectionStart ?? box.value.length;
  const wording = await post("/api/wording", {component: component.id, edition: state.edition,
                                              opening: opensSentence(box.value, start, placeOf(component))});
  insertWording(box, wording, start, box.selectionEnd ?? start);
}

/** Where a component goes: in an ability ("ability"), a sub-ability or on the card (its kind's place). */
function placeOf(component) {
  return (state.system.kinds.find((k) => k.id === component.kind) || {}).place;
}

/** Replace an unknown sentence with a component the engine suggests, its numbers kept in order. */
async function useSuggestion(unknown, component) {
  if (JSON.stringify(form.card()) !== state.judged) return; // typed on since: its own verdict is on the way
  const box = unknown.paragraph ? form.box(unknown.paragraph) : null;
  if (!box) return;
  const found = locate(box.value, unknown.sentence);
  if (!found) return;
  const numbers = (unknown.sentence.match(/\d+/g) || []).map(Number).filter((n) => n > 0);
  const values = Object.fromEntries(component.variables.map((v, i) => [v, numbers[i] ?? 1]));
  const wording = await post("/api/wording", {component: component.id, edition: state.edition, values,
                                              opening: opensSentence(box.value, found[0], placeOf(component))});
  insertWording(box, wording, found[0], found[1]);
}

/** Where ``sentence`` (as the engine quotes it: quotes straight, spaces single) is in ``text``. */
function locate(text, sentence) {
  const at = text.indexOf(sentence);
  if (at >= 0) return [at, at + sentence.length];
  const pattern = sentence.replace(/[.*+?^${}()|[\]\\]/g, "\\$&").replace(/ /g, "\\s+")
    .replace(/'/g, "['\u2018\u2019]").replace(/"/g, "[\"\u201c\u201d]");
  const m = new RegExp(pattern).exec(text);
  return m ? [m.index, m.index + m[0].length] : null;
}

async function useCurrent(card, edition) {
  state.editing = null;
  showEditing();
  await setEdition(edition, () => card);
}

async function editCard(index, card) {
  state.editing = index;
  showEditing();
  form.show(state.system, card);
  await judge();
  $("#card-name").focus();
  $("#card").scrollIntoView({block: "start"});
}

function showEditing() {
  const note = $("#editing");
  note.hidden = state.editing === null;
  if (state.editing !== null) fill($("#editing-what"), `Editing card [${state.editing + 1}] of ${collection.held.name}`);
}

function start(answer) {
  state.editions = answer.editions;
  state.names = Object.fromEntries(answer.editions.map((e) => [e.key, e.name]));
  state.documents = answer.documents;
  state.current = answer.current;
  fill($("#edition"), answer.editions.map((e) => el("option", {value: String(e.key), disabled: !e.catalog_known},
    `${e.name}${e.current ? " (current)" : ""}`)));
  $("#edition").addEventListener("change", async (event) => {
    // the card stays in the form, judged by the other edition's rules; an Edition Indicator that was
    // the edition's own follows it (where that edition's cards print one)
    state.editing = null;
    showEditing();
    const keep = form.card();
    const was = numberOf(state.edition);
    const key = event.target.value;
    const fields = (s) => [s.figure, ...s.types.flatMap((t) => t.stats.map((st) => st.name))];
    const shown = fields(state.system);
    await setEdition(/^\d+$/.test(key) ? Number(key) : key, (system) => {
      // a field the form showed that this edition's form has not (a printed cost, another edition's stat)
      // goes: the form could neither show it nor clear it, and the card could not be read with it
      for (const name of shown) if (!fields(system).includes(name)) delete keep[name];
      if (keep.edition === was || keep.edition === undefined) {
        if (system.edition_indicator === "none") delete keep.edition;
        else keep.edition = numberOf(state.edition);
      }
      return keep;
    });
    if (collection.held) await collection.checkAgain();
  });
  $("#collection").addEventListener("taken", () => {
    state.editing = null;
    showEditing();
  });
  $("#new-card").addEventListener("click", async () => {
    state.editing = null;
    showEditing();
    form.show(state.system, blankCard());
    await judge();
    $("#card-name").focus();
  });
  $("#download-svg").addEventListener("click", () => {
    const name = (form.card().name || "card").replace(/[^A-Za-z0-9_-]+/g, "-").replace(/^-|-$/g, "") || "card";
    save(new Blob([state.svg], {type: "image/svg+xml"}), `${name}.svg`);
  });
  return setEdition(state.current).then(() => {
    if (answer.collection) collection.take(answer.collection);
    document.body.dataset.ready = "true";
  });
}

get("/api/editions").then(start).catch((error) => {
  fill($("#verdict"), el("p", {class: "error", role: "alert"}, `The workbench cannot start: ${error.message}`));
});
