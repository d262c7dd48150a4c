// Small helpers the workbench's modules share: elements made without HTML strings (text is always
// text), requests to the workbench's own server, and a debounce for live judgement.

/** An element: el("button", {type: "button", onclick: f}, "Text", child…). Attributes named on… are
 *  listeners, "class" the class list, "data" a dataset, a false/null value is left out. */
export function el(tag, props = {}, ...children) {
  const node = tag.startsWith("svg:") ? document.createElementNS("http://www.w3.org/2000/svg", tag.slice(4))
                                      : document.createElement(tag);
  for (const [name, value] of Object.entries(props || {})) {
    if (value === false || value === null || value === undefined) continue;
    if (name.startsWith("on")) node.addEventListener(name.slice(2), value);
    else if (name === "data") Object.assign(node.dataset, value);
    else if (name === "value") node.value = value;
    else if (name === "checked" || name === "selected" || name === "hidden") node[name] = Boolean(value);
    else node.setAttribute(name, value === true ? "" : String(value));
  }
  append(node, children);
  return node;
}

export function append(node, children) {
  for (const child of children.flat(Infinity)) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : String(child));
  }
  return node;
}

/** Empty ``node`` and fill it with ``children``. */
export function fill(node, ...children) {
  node.replaceChildren();
  return append(node, children);
}

export class ServerError extends Error {
  constructor(status, answer) {
    super((answer && answer.error && answer.error.message) || `the workbench answered ${status}`);
    this.status = status;
    this.answer = answer;
  }
}

async function answered(response) {
  const type = response.headers.get("Content-Type") || "";
  const body = type.startsWith("application/json") ? await response.json() : await response.blob();
  if (!response.ok) throw new ServerError(response.status, body);
  return body;
}

/** GET the workbench's ``path`` (with ``query``): its JSON. */
export async function get(path, query = {}) {
  const url = new URL(path, location.origin);
  for (const [k, v] of Object.entries(query)) url.searchParams.set(k, v);
  return answered(await fetch(url, {headers: {Accept: "application/json"}}));
}

/** POST ``body`` as JSON to the workbench's ``path``: its JSON (or, for a file, a Blob). */
export async function post(path, body) {
  return answered(await fetch(path, {method: "POST", headers: {"Content-Type": "application/json"}, body: JSON.stringify(body)}));
}

/** POST a file's bytes to ``path``. */
export async function upload(path, query, bytes) {
  const url = new URL(path, location.origin);
  for (const [k, v] of Object.entries(query)) url.searchParams.set(k, v);
  return answered(await fetch(url, {method: "POST", headers: {"Content-Type": "application/octet-stream"}, body: bytes}));
}

/** ``f`` called ``wait`` ms after the last of a burst of calls. */
export function debounce(f, wait) {
  let timer = null;
  return (...args) => {
    clearTimeout(timer);
    timer = setTimeout(() => f(...args), wait);
  };
}

/** Offer ``blob`` as a file named ``name`` to save. */
export function save(blob, name) {
  const url = URL.createObjectURL(blob);
  const link = el("a", {href: url, download: name, hidden: true});
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

/** "17th" for 17, "11th pre-release" for "11-pre": as the server names editions. */
export function editionName(editions, key) {
  const found = editions.find((e) => String(e.key) === String(key));
  return found ? found.name : String(key);
}
