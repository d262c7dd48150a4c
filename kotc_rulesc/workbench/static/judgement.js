// A card's judgement as the server gives it — the verdict of check-cards, the breakdown of cost, what
// migrate makes of it in the current edition, its picture — put on the page.  Every number shown is
// one the server sent: the page computes none.

import {el, fill} from "./dom.js";

const STATUS_TEXT = {legal: "legal", banned: "banned", error: "cannot be read", unknown: "legality unknown"};

/** The verdict: the figure, the status in the rulebook's word, the Ultra Points, every reason,
 *  warning and note, and the nearest components of each unknown text (``suggest(unknown, component)``). */
export function showVerdict(node, answer, ctx) {
  const v = answer.verdict;
  const cost = answer.cost;
  const figure = ctx.system.figure_title;
  const value = v[ctx.system.figure];
  const printed = v[`printed_${ctx.system.figure}`];
  const word = answer.outcome === v.status ? STATUS_TEXT[v.status] : answer.outcome;
  const head = el("div", {class: "verdict-head"},
    el("p", {class: "figure", id: "figure"},
      el("span", {class: "figure-name"}, capital(figure)), " ",
      el("strong", {id: "figure-value", data: {value: value ?? ""}}, value ?? (v.status === "error" ? "not computed" : "unknown"))),
    printed !== null && printed !== undefined ?
      el("p", {class: printed === value ? "printed" : "printed differs"}, `printed ${printed}`) : null,
    el("p", {class: `status status-${v.status}`, id: "status", data: {status: v.status}}, word),
    answer.ultra_points !== null && answer.ultra_points !== undefined && (answer.ultra_points || ctx.system.ultra_points !== null) ?
      el("p", {class: "ultra", id: "ultra-points"}, `Ultra Points ${answer.ultra_points}`) : null);
  // an unknown text's reason offers the components the engine finds nearest: choosing one puts it in place
  const unknown = [...answer.unknown];
  const suggestions = (r) => {
    if (r.code !== "unknown-text") return null;
    const i = unknown.findIndex((u) => u.field === r.field && r.message.startsWith(`"${u.sentence}"`));
    if (i < 0) return null;
    const [u] = unknown.splice(i, 1);
    return u.nearest.length ? el("span", {class: "suggestions"}, "Put in its place: ", u.nearest.map((c) =>
      el("button", {type: "button", class: "suggestion", onclick: () => ctx.suggest(u, c)},
        c.text, c.formula !== null ? el("span", {class: "formula"}, ` = ${c.formula}`) : null))) : null;
  };
  const reasons = v.reasons.map((r) => el("li", {class: `reason reason-${r.code}`},
    el("code", {}, r.code), r.field ? el("span", {class: "field-name"}, ` (${r.field})`) : null, ": ", r.message,
    cite(r, ctx), suggestions(r), r.field && !ctx.shows(r.field) ? // a field the form cannot show or clear
      el("button", {type: "button", class: "clear-field", onclick: () => ctx.clear(r.field)}, `Take ${r.field} off the card`) : null));
  const warnings = (answer.warnings || []).map((w) => el("li", {class: "warning"}, describe(w)));
  fill(node, head,
    reasons.length ? el("ul", {class: "reasons", id: "reasons"}, reasons) : null,
    warnings.length ? [el("h3", {}, "Warnings"), el("ul", {class: "warnings", id: "warnings"}, warnings)] : null,
    v.notes.length ? el("ul", {class: "notes"}, v.notes.map((n) => el("li", {}, n))) : null);
  return cost;
}

function describe(warning) {
  if (typeof warning === "string") return warning;
  const text = warning.message || JSON.stringify(warning);
  const instead = warning.instead || warning.text;
  return instead ? [text, " — print instead: ", el("q", {}, instead)] : text;
}

/** " [16th edition; Card Building Guide, 16th Edition; Rulebook, 17th Edition]": what a reason rests on. */
function cite(reason, ctx) {
  const parts = [];
  if (reason.edition !== null && reason.edition !== undefined) parts.push(`${ctx.names[reason.edition] || reason.edition} edition`);
  for (const id of reason.sources || []) parts.push(ctx.documents[id] || id);
  return parts.length ? el("span", {class: "cite"}, ` [${parts.join("; ")}]`) : null;
}

function capital(text) {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** The figure per ability, sub-ability and component (``cost --format json``'s breakdown). */
export function showBreakdown(node, cost, system, names) {
  const b = cost.breakdown;
  if (!b) {
    fill(node, el("p", {class: "hint"}, `No breakdown: the ${system.figure_title} is computed once the card can be read.`));
    return;
  }
  const rule = b.rule || {};
  const ruleNames = Object.keys(rule).filter((k) => !["edition", "stated", "sources"].includes(k));
  const rows = [];
  // a scope's figures: "sub-ability cost = sum(effect_costs)" and what it came to
  const scopeRow = (entry, depth) => {
    for (const name of ruleNames) {
      if (entry[name] === undefined || entry[name] === null) continue;
      rows.push(el("tr", {class: `scope depth-${depth}`},
        el("td", {colspan: 4}, name.replace("sub_ability", "sub-ability").replaceAll("_", " "), " = ",
          el("code", {class: "formula"}, rule[name])),
        el("td", {class: "value"}, entry[name])));
    }
  };
  // a component: its kind's noun, its text, what its formula does and the formula, the values it read, its value
  const partRow = (part, depth) => rows.push(el("tr", {class: `part depth-${depth}`},
    el("td", {}, part.noun),
    el("td", {class: "text"}, part.text, part.ultra ? el("span", {class: "ultra"}, ` [+${part.ultra}]`) : null),
    el("td", {class: "formula"}, part.role === "none" ? "no formula" : `${part.role} ${part.formula ?? "unknown"}`),
    el("td", {class: "values"}, valuesText(part)),
    el("td", {class: "value"}, part.role === "none" ? "" : part.value ?? "unknown")));
  for (const [kind, noun] of Object.entries(b.card_kinds || {})) if (b[kind]) partRow(b[kind], 0);
  b.abilities.forEach((ability, i) => {
    rows.push(el("tr", {class: "ability-row"}, el("th", {colspan: 5, scope: "rowgroup"},
      `Ability ${i + 1}${ability.name ? `: ${ability.name}` : ""} (paragraph ${ability.paragraph})`)));
    for (const part of ability.components) partRow(part, 1);
    (ability.sub_abilities || []).forEach((sub, k) => {
      rows.push(el("tr", {class: "sub-row"}, el("th", {colspan: 5, scope: "rowgroup"}, `sub-ability ${k + 1}`)));
      for (const part of sub.components) partRow(part, 2);
      scopeRow(sub, 2);
    });
    scopeRow(ability, 1);
  });
  const total = `${b.type}_cost`;
  fill(node,
    el("p", {class: "stats-line"}, b.type, b.stats.length ? `: ${b.stats.map((s) => `${s} ${b[s]}`).join(", ")}` : ""),
    el("table", {class: "breakdown", id: "breakdown-table"},
      el("thead", {}, el("tr", {}, ["component", "text", "formula", "values", "value"].map((h) => el("th", {scope: "col"}, h)))),
      el("tbody", {}, rows)),
    rule[total] ? el("p", {class: "total", id: "breakdown-total"}, el("code", {}, `${total} = ${rule[total]}`), " = ",
      el("strong", {}, b.total ?? "unknown"),
      rule.stated === false ? ` (the rule of the ${names[rule.edition] || rule.edition} edition)` : "") : null,
    b.ultra_points ? el("p", {}, `Ultra Points: ${b.ultra_points} (the sum of its texts' [+N])`) : null);
}

function valuesText(part) {
  const known = new Set(["component", "kind", "noun", "text", "formula", "values", "role", "value", "ultra"]);
  const items = Object.entries(part.values || {}).sort().map(([k, v]) => `${k}=${v}`);
  for (const [k, v] of Object.entries(part)) if (!known.has(k)) items.push(`${k}=${v ?? "unknown"}`);
  return items.join(", ");
}

/** What ``migrate --to`` the current edition makes of the card (``use(card)`` edits the result). */
export function showCurrent(node, answer, ctx) {
  const m = answer.current;
  if (ctx.edition === ctx.current) {
    fill(node, el("p", {}, `This is the current edition, the ${ctx.editionName}: the verdict above is the card's today.`));
    return;
  }
  if (!m) {
    fill(node, el("p", {}, `Migration does not lead from the ${ctx.editionName} edition to the current one (a pre-release is a branch of its own).`));
    return;
  }
  const name = ctx.names[m.edition] || m.edition;
  const report = m.report;
  const says = {
    rewritten: `In the ${name} edition its text is ${m.outcome}:`,
    reissued: `In the ${name} edition it is re-issued (its ${ctx.system.figure_title} and Edition Indicator change):`,
    unchanged: `It stands unchanged in the ${name} edition.`,
  }[m.status] || `In the ${name} edition it is ${m.outcome}: kept as it was, because`;
  fill(node,
    el("p", {class: `says status-${m.legal ? "legal" : m.status}`, id: "current-status", data: {status: m.status}}, says),
    m.text ? el("blockquote", {id: "current-text"}, m.text.split("\n").map((line) => el("p", {}, line))) : null,
    (report.text || []).length ? el("ul", {class: "rewrites"}, report.text.map((r) =>
      el("li", {}, `paragraph ${r.line}: “${r.old}” → “${r.new}”`))) : null,
    report.reasons ? el("ul", {class: "reasons"}, report.reasons.map((r) =>
      el("li", {}, el("code", {}, r.code), ": ", r.message, cite(r, ctx)))) : null,
    report.notes ? el("ul", {class: "notes"}, report.notes.map((n) => el("li", {}, n))) : null,
    report.remedy ? el("p", {class: "remedy", id: "current-remedy"}, `What you can do: ${report.remedy}.`) : null,
    m.legal && m.status !== "unchanged" ? el("button", {type: "button", id: "use-current", onclick: () => ctx.use(m.card, m.edition)},
      `Edit it as a ${name}-edition card`) : null);
}

/** The card's picture (the server's SVG), and its download. */
export function showPicture(img, svg, name) {
  img.src = `data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}`;
  img.alt = `A picture of the card${name ? ` “${name}”` : ""}`;
}
