// A form generated from a JSON Schema (the OpenAPI document's `<Game>Options`,
// `<Game>CalculateRequest`, a move type to describe): objects become fieldsets, arrays lists
// with Add/Remove, enums selects, numbers numeric inputs. read() answers the JSON value;
// showErrors({path: [message]}) puts each message beside the field at that path
// ("escapes.0.seat"), or the nearest field above it.
import { h, uid } from "./dom.js";
import { describeText, fieldLabel, singular, t, valueLabel } from "./i18n.js";

const INLINE_ITEMS = 8;  // a fixed list of at most this many scalars sits on one line

function resolve(schema, named) {
  while (schema && schema.$ref) schema = named[schema.$ref.split("/").pop()];
  return schema || {};
}

/** The schema without its "or null": oneOf [X, null] and type [T, "null"] → X. */
function unwrap(schema, named) {
  schema = resolve(schema, named);
  const choices = schema.oneOf || schema.anyOf;
  if (Array.isArray(choices)) {
    const solid = choices.map((s) => resolve(s, named)).filter((s) => s.type !== "null");
    if (solid.length === 1) {
      schema = { ...solid[0], description: schema.description || solid[0].description,
                 default: schema.default !== undefined ? schema.default : solid[0].default };
    }
  }
  if (Array.isArray(schema.type)) schema = { ...schema, type: schema.type.find((x) => x !== "null") };
  return schema;
}

function kindOf(schema) {
  if ("const" in schema) return "const";
  if (Array.isArray(schema.enum)) return "enum";
  if (schema.type === "boolean" || (schema.type === undefined && typeof schema.default === "boolean")) return "boolean";
  if (schema.type === "integer" || schema.type === "number") return "number";
  if (schema.type === "array") return "array";
  if (schema.type === "object" || schema.properties) return "object";
  return "string";
}

const isScalar = (schema) => ["enum", "number", "string", "boolean"].includes(kindOf(schema));

export class SchemaForm {
  /** schema: a JSON Schema; named: the document's component schemas ($ref targets). */
  constructor(schema, named, { value, label, omitDefaults = false } = {}) {
    this.schema = schema;
    this.named = named;
    this.label = label;
    this.omitDefaults = omitDefaults;  // an options form sends only what differs
    this.element = h("div", { class: "schema-form" });
    this.fill(value);
  }

  /** Lay the form out anew holding `value` (undefined: the schema's defaults). */
  fill(value) {
    this.fields = new Map();
    this.formError = h("p", { class: "error", role: "alert", hidden: true });
    this.root = this.node(this.schema, "", value, true, this.label, true);
    this.element.replaceChildren(this.formError, this.root.element || "");
  }

  read() {
    const value = this.root.read();
    return value === undefined ? {} : value;
  }

  clearErrors() {
    this.formError.hidden = true;
    this.formError.textContent = "";
    for (const field of this.fields.values()) {
      field.error.textContent = "";
      field.error.hidden = true;
      if (field.input) field.input.removeAttribute("aria-invalid");
    }
  }

  /** Show {path: [messages]}; answers the first field shown, to focus. */
  showErrors(errors) {
    let first = null;
    for (const [path, messages] of Object.entries(errors)) {
      const field = this.nearest(path);
      const text = [].concat(messages).join(" ");
      const target = field ? field.error : this.formError;
      target.textContent = target.textContent ? `${target.textContent} ${text}` : text;
      target.hidden = false;
      if (field && field.input) field.input.setAttribute("aria-invalid", "true");
      for (let node = target; node; node = node.parentElement) if (node.tagName === "DETAILS") node.open = true;
      first = first || (field && field.input) || null;
    }
    return first;
  }

  /** The registered field at `path` or the closest one above it. */
  nearest(path) {
    let parts = path === "" || path === "body" ? [] : path.split(".");
    while (parts.length) {
      const field = this.fields.get(parts.join("."));
      if (field) return field;
      parts = parts.slice(0, -1);
    }
    return null;
  }

  /** Every registered path (for matching words of an error's sentence to fields). */
  paths() {
    return [...this.fields.keys()];
  }

  register(path, box, input) {
    box.dataset.path = path;  // where a refusal's path points
    const error = h("p", { class: "error", id: uid("error"), hidden: true });
    box.append(error);
    if (input) {
      const described = [input.getAttribute("aria-describedby"), error.id].filter(Boolean);
      input.setAttribute("aria-describedby", described.join(" "));
    }
    this.fields.set(path, { box, error, input });
  }

  node(schemaIn, path, value, required, label, isRoot = false, bare = false) {
    const schema = unwrap(schemaIn, this.named);
    const kind = kindOf(schema);
    const initial = value !== undefined ? value : schema.default;
    if (kind === "const") return { element: null, read: () => schema.const };
    if (kind === "object") return this.objectNode(schema, path, initial, required, label, isRoot);
    if (kind === "array") return this.arrayNode(schema, path, initial, required, label);
    return this.scalarNode(schema, kind, path, initial, required, label, bare);
  }

  hint(schema) {
    return schema.description ? h("small", { class: "hint", id: uid("hint") }, describeText(schema.description)) : null;
  }

  scalarNode(schema, kind, path, initial, required, label, bare) {
    const id = uid("field");
    const hint = bare ? null : this.hint(schema);  // a list's items share the list's hint
    const described = hint ? hint.id : null;
    let input;
    let read;
    const fallback = schema.default;
    const keepDefault = (v) => (this.omitDefaults && JSON.stringify(v) === JSON.stringify(fallback) ? undefined : v);
    if (kind === "boolean") {
      input = h("input", { type: "checkbox", id, checked: initial === true, "aria-describedby": described });
      // an optional box left at its default is left out: the server applies the default
      read = () => (!required && input.checked === (fallback === true) ? undefined : input.checked);
      const box = h("div", { class: "field check" }, h("label", { for: id }, input, " ", label), hint);
      this.register(path, box, input);
      return { element: box, read };
    }
    if (kind === "enum") {
      const options = [];
      if (!required || initial === undefined || initial === null) options.push(h("option", { value: "" }, "—"));
      for (const v of schema.enum) {
        options.push(h("option", { value: JSON.stringify(v), selected: JSON.stringify(v) === JSON.stringify(initial) },
          valueLabel(v)));
      }
      input = h("select", { id, "aria-describedby": described }, options);
      read = () => (input.value === "" ? (schema.enum.includes(null) ? null : undefined) : keepDefault(JSON.parse(input.value)));
    } else if (kind === "number") {
      input = h("input", {
        type: "number", id, inputmode: "numeric", "aria-describedby": described,
        min: schema.minimum, max: schema.maximum, step: schema.multipleOf || (schema.type === "integer" ? 1 : "any"),
        value: initial === undefined || initial === null ? "" : String(initial),
      });
      read = () => {
        if (input.value.trim() === "") return undefined;
        return keepDefault(Number(input.value));
      };
    } else {
      input = h("input", { type: "text", id, autocomplete: "off", autocapitalize: "characters", spellcheck: "false",
        "aria-describedby": described, value: initial === undefined || initial === null ? "" : String(initial) });
      read = () => (input.value.trim() === "" ? undefined : keepDefault(input.value.trim()));
    }
    const box = h("div", { class: "field" }, h("label", { for: id }, label), input, hint);
    this.register(path, box, input);
    return { element: box, read, input };
  }

  objectNode(schema, path, initial, required, label, isRoot) {
    const properties = Object.entries(schema.properties || {});
    const needed = new Set(schema.required || []);
    const values = initial && typeof initial === "object" ? initial : {};
    const children = properties.map(([key, sub]) => [key, this.node(
      sub, path ? `${path}.${key}` : key, values[key], needed.has(key), fieldLabel(key))]);
    const inner = children.map(([, child]) => child.element).filter(Boolean);
    let element;
    if (isRoot) element = h("div", { class: "fields" }, inner);
    else if (!required) {
      // an optional group (options in a score helper): folded away until wanted
      element = h("details", { class: "group" }, h("summary", {}, label), this.hint(schema), inner);
    } else element = h("fieldset", { class: "group" }, h("legend", {}, label), this.hint(schema), inner);
    if (!isRoot) this.register(path, element, null);
    const read = () => {
      const out = {};
      for (const [key, child] of children) {
        const v = child.read();
        if (v !== undefined) out[key] = v;
      }
      // nothing filled in: left out (a required one is then named by the server's refusal)
      return !isRoot && Object.keys(out).length === 0 ? undefined : out;
    };
    return { element, read };
  }

  arrayNode(schema, path, initial, required, label) {
    const items = unwrap(schema.items || {}, this.named);
    const min = schema.minItems || 0;
    const max = schema.maxItems === undefined ? 99 : schema.maxItems;
    const fixed = min === max;
    if (!fixed && ["number", "string"].includes(kindOf(items))) return this.wordsNode(schema, items, path, initial, required, label);
    const inline = fixed && max <= INLINE_ITEMS && isScalar(items);
    const list = h(inline ? "div" : "ol", { class: inline ? "inline-items" : "items" });
    const about = [schema.description, inline ? items.description : null].filter(Boolean).map(describeText).join(" · ");
    const box = h("fieldset", { class: "group array" }, h("legend", {}, label),
      about ? h("small", { class: "hint" }, about) : null, list);
    let nodes = [];
    const seatItems = kindOf(items) === "object" && items.properties && items.properties.seat;
    const start = Array.isArray(initial) ? initial : Array.from({ length: required || fixed ? min : 0 },
      (_, i) => (seatItems ? { seat: i + 1 } : undefined));
    const addButton = fixed ? null : h("button", { type: "button", class: "small", onclick: () => {
      const values = nodes.map((n) => n.read());
      values.push(seatItems ? { seat: values.length + 1 } : undefined);
      layout(values);
      const fresh = nodes[nodes.length - 1].element;
      const focusable = fresh && fresh.querySelector("input, select");
      if (focusable) focusable.focus();
    } }, t("form.add", { what: label }));
    if (addButton) box.append(addButton);

    const layout = (values) => {
      for (const key of [...this.fields.keys()]) if (key.startsWith(`${path}.`)) this.fields.delete(key);
      nodes = values.map((v, i) => this.node(items, `${path}.${i}`, v, true,
        inline ? String(i + 1) : t("form.item", { what: singular(label), n: i + 1 }), false, inline));
      list.replaceChildren(...nodes.map((node, i) => {
        if (inline) return node.element;
        const remove = fixed || values.length <= min ? null : h("button", {
          type: "button", class: "small secondary",
          onclick: () => layout(nodes.map((n) => n.read()).filter((_, j) => j !== i)),
        }, t("form.remove", { what: t("form.item", { what: singular(label), n: i + 1 }) }));
        return h("li", {}, node.element, remove);
      }));
      if (addButton) addButton.disabled = values.length >= max;
    };
    layout(start);
    this.register(path, box, null);
    const read = () => {
      const values = nodes.map((n) => n.read());
      if (values.length === 0) return required ? [] : undefined;
      if (values.every((v) => v === undefined)) return undefined;  // as an empty object
      if (this.omitDefaults && JSON.stringify(values) === JSON.stringify(schema.default)) return undefined;
      return values.map((v) => (v === undefined ? null : v));
    };
    return { element: box, read };
  }

  /** A list of numbers or short words of any length, typed on one line ("7 5 5 2"): a score
   *  keeper types faster than they press Add. A word that is not a number goes as it is, so
   *  the server's refusal names its place. */
  wordsNode(schema, items, path, initial, required, label) {
    const id = uid("field");
    const hint = h("small", { class: "hint", id: uid("hint") },
      [t("form.words"), describeText(schema.description), describeText(items.description)].filter(Boolean).join(" · "));
    const numbers = kindOf(items) === "number";
    const input = h("input", { type: "text", id, autocomplete: "off", spellcheck: "false",
      autocapitalize: numbers ? "off" : "characters", inputmode: numbers ? "numeric" : "text",
      "aria-describedby": hint.id, value: Array.isArray(initial) ? initial.join(" ") : "" });
    const box = h("div", { class: "field" }, h("label", { for: id }, label), input, hint);
    this.register(path, box, input);
    const read = () => {
      const words = input.value.split(/[\s,、]+/).filter(Boolean);
      if (!words.length) return required ? [] : undefined;
      return words.map((w) => (numbers && /^-?\d+(\.\d+)?$/.test(w) ? Number(w) : w));
    };
    return { element: box, read };
  }
}

/** A problem's errors ({"a.0.b": [...]} or marshmallow's nested {a: {0: {b: [...]}}}) as
 *  {path: [messages]}. */
export function flattenErrors(errors, prefix = "") {
  const out = {};
  for (const [key, value] of Object.entries(errors || {})) {
    const path = prefix ? `${prefix}.${key}` : key;
    if (Array.isArray(value) || typeof value !== "object") out[path] = [].concat(value).map(String);
    else Object.assign(out, flattenErrors(value, path));
  }
  return out;
}

/**
 * Where an impossible-input sentence belongs: "escapes[1].plate: …" names its path;
 * "seat 2: track …" (in Japanese "プレイヤー2：…") the item of seat 2 and its field; otherwise
 * the deepest field whose name the sentence mentions (English only: a Japanese sentence that
 * leads with no path goes to the form as a whole). Answers a path, or "" (the form).
 */
// a sentence's leading field path ("escapes[1].plate: …"), as the API words a refusal
const LEAD = /^([a-z_]+(?:\[\d+\]|\.[a-z_]+)*)[ :.]/;

/** A sentence shown beside the field its leading path names, without that path (the field's
 *  own label says where; the path is the API's English). */
export function withoutLeadingPath(sentence) {
  return String(sentence).replace(/^[a-z_]+(?:\[\d+\]|\.[a-z_]+)*[:：]\s*/, "");
}

export function pathOfSentence(detail, paths, value) {
  const lead = LEAD.exec(detail || "");
  if (lead) {
    const path = lead[1].replace(/\[(\d+)\]/g, ".$1");
    if (paths.includes(path) || paths.some((p) => p.startsWith(`${path}.`))) return path;
  }
  const seat = /^(?:seat |プレイヤー)(\d+)[:：]/.exec(detail || "");  // English or Japanese
  const words = new Set((detail || "").toLowerCase().match(/[a-z_]+/g) || []);
  const named = (p) => {  // the field's name, or its singular ("gauges": "a gauge of 7")
    const name = p.split(".").pop();
    return words.has(name) || words.has(name.replace(/s$/, ""));
  };
  if (seat && value) {
    for (const [key, list] of Object.entries(value)) {
      if (!Array.isArray(list)) continue;
      const index = list.findIndex((item) => item && item.seat === Number(seat[1]));
      if (index < 0) continue;
      const inside = paths.filter((p) => p.startsWith(`${key}.${index}.`) && named(p));
      return inside[0] || `${key}.${index}`;
    }
  }
  const mentioned = paths.filter((p) => named(p) && !/\.\d+$/.test(p));
  mentioned.sort((a, b) => a.split(".").length - b.split(".").length);
  return mentioned[0] || "";
}
