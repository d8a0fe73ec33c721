// dom.mjs: the part of the DOM a report is drawn with, for Node, which has none. The page's report
// builders (web/report/, the trust panels of web/stats/, web/stats/histogram.js) draw into whatever
// document they are given; build.js makes it with doc.implementation.createHTMLDocument and
// serializes it with outerHTML. This module is that document: elements in the HTML and SVG
// namespaces, text nodes, attributes, dataset, a style declaration, the tree operations the
// builders use, one simple selector, and the HTML fragment serialization algorithm
// (https://html.spec.whatwg.org/multipage/parsing.html#serialising-html-fragments) as Chromium
// follows it, `<` and `>` escaped in attribute values included: the CLI's report is the page's
// report, byte for byte but the styles (test/cli/sameverdicts.test.mjs compares the two).
//
// It is not a general DOM: what a builder would need beyond this throws, naming it, rather than
// drawing something else. (linkedom, the small DOM library tried first, left `&` unescaped in
// attribute values, did not reflect `open` and wrote attributes in reverse order: its report was
// not the page's.)

import "./entry.mjs"; // run as a command, this module refuses (entry.mjs)

export const HTML_NS = "http://www.w3.org/1999/xhtml";
export const SVG_NS = "http://www.w3.org/2000/svg";

/** VOID: HTML elements that have no end tag and no content. */
const VOID = new Set(["area", "base", "basefont", "bgsound", "br", "col", "embed", "frame", "hr", "img", "input", "keygen", "link", "meta", "param", "source", "track", "wbr"]);

/** RAW: HTML elements whose text is serialized as it is. */
const RAW = new Set(["style", "script", "xmp", "iframe", "noembed", "noframes", "plaintext"]);

/** escapeText is text's serialization outside an attribute. @param {string} s */
function escapeText(s) {
  return s.replace(/[&\u00a0<>]/g, (c) => (c === "&" ? "&amp;" : c === "<" ? "&lt;" : c === ">" ? "&gt;" : "&nbsp;"));
}

/** escapeAttr is an attribute value's serialization (between double quotes). @param {string} s */
function escapeAttr(s) {
  return s.replace(/[&\u00a0"<>]/g, (c) => (c === "&" ? "&amp;" : c === '"' ? "&quot;" : c === "<" ? "&lt;" : c === ">" ? "&gt;" : "&nbsp;"));
}

/** Node is what an element's children are: elements and text. */
class Node {
  /** @param {Document} doc */
  constructor(doc) {
    this.ownerDocument = doc;
    /** @type {Element|null} */
    this.parentNode = null;
  }

  /** remove takes the node out of its parent. */
  remove() {
    const p = this.parentNode;
    if (!p) return;
    const i = p.childNodes.indexOf(this);
    if (i >= 0) p.childNodes.splice(i, 1);
    this.parentNode = null;
  }

  /** after inserts nodes (or texts) after this one. @param {...(Node|string)} nodes */
  after(...nodes) {
    const p = this.parentNode;
    if (!p) return;
    const list = nodes.map((n) => p.adopt(n));
    p.childNodes.splice(p.childNodes.indexOf(this) + 1, 0, ...list);
  }
}

export class Text extends Node {
  /** @param {Document} doc @param {string} data */
  constructor(doc, data) {
    super(doc);
    this.data = data;
    this.nodeType = 3;
  }
  get textContent() {
    return this.data;
  }
  set textContent(v) {
    this.data = String(v);
  }
}

/** dataAttr is the data-* attribute of a dataset key: fooBar is data-foo-bar. @param {string} key */
function dataAttr(key) {
  if (/-[a-z]/.test(key)) throw new SyntaxError(`dataset: "${key}" is not a valid key`);
  return "data-" + key.replace(/[A-Z]/g, (c) => "-" + c.toLowerCase());
}

/** StyleDeclaration is an element's style attribute as CSSOM sets it (setProperty only). */
class StyleDeclaration {
  /** @param {Element} owner */
  constructor(owner) {
    this.owner = owner;
    /** @type {Map<string, string>} */
    this.props = new Map();
  }
  /** @param {string} name @param {string} value */
  setProperty(name, value) {
    const v = String(value).trim();
    if (v === "") this.props.delete(name);
    else this.props.set(name, v);
    const text = [...this.props].map(([k, x]) => `${k}: ${x};`).join(" ");
    if (text) this.owner.setAttribute("style", text);
    else this.owner.removeAttribute("style");
  }
  /** @param {string} name */
  getPropertyValue(name) {
    return this.props.get(name) || "";
  }
}

export class Element extends Node {
  /** @param {Document} doc @param {string} name @param {string} ns */
  constructor(doc, name, ns) {
    super(doc);
    this.namespaceURI = ns;
    this.localName = ns === HTML_NS ? name.toLowerCase() : name;
    this.nodeType = 1;
    /** @type {Map<string, string>} in the order they were first set */
    this.attrs = new Map();
    /** @type {Node[]} */
    this.childNodes = [];
    /** @type {StyleDeclaration|null} */
    this.styleDecl = null;
    /** @type {Record<string, string>} */
    this.dataset = new Proxy(/** @type {Record<string, string>} */ ({}), {
      set: (_, key, value) => (this.setAttribute(dataAttr(String(key)), String(value)), true),
      get: (_, key) => (typeof key === "string" ? this.getAttribute(dataAttr(key)) ?? undefined : undefined),
      has: (_, key) => typeof key === "string" && this.attrs.has(dataAttr(key)),
      deleteProperty: (_, key) => (this.removeAttribute(dataAttr(String(key))), true),
      ownKeys: () => [...this.attrs.keys()].filter((k) => k.startsWith("data-")).map((k) => k.slice(5).replace(/-([a-z])/g, (_, c) => c.toUpperCase())),
      getOwnPropertyDescriptor: (_, key) => (typeof key === "string" && this.attrs.has(dataAttr(key)) ? { value: this.getAttribute(dataAttr(key)), enumerable: true, configurable: true, writable: true } : undefined),
    });
  }

  get tagName() {
    return this.namespaceURI === HTML_NS ? this.localName.toUpperCase() : this.localName;
  }

  /** @param {string} name */
  attrName(name) {
    return this.namespaceURI === HTML_NS ? String(name).toLowerCase() : String(name);
  }
  /** @param {string} name @param {unknown} value */
  setAttribute(name, value) {
    this.attrs.set(this.attrName(name), String(value));
  }
  /** @param {string} name */
  getAttribute(name) {
    const v = this.attrs.get(this.attrName(name));
    return v === undefined ? null : v;
  }
  /** @param {string} name */
  hasAttribute(name) {
    return this.attrs.has(this.attrName(name));
  }
  /** @param {string} name */
  removeAttribute(name) {
    this.attrs.delete(this.attrName(name));
  }
  /** @param {string} name @param {boolean} on */
  boolAttr(name, on) {
    if (on) {
      if (!this.hasAttribute(name)) this.setAttribute(name, "");
    } else this.removeAttribute(name);
  }

  get className() {
    return this.getAttribute("class") ?? "";
  }
  set className(v) {
    this.setAttribute("class", v);
  }
  get id() {
    return this.getAttribute("id") ?? "";
  }
  set id(v) {
    this.setAttribute("id", v);
  }
  get title() {
    return this.getAttribute("title") ?? "";
  }
  set title(v) {
    this.setAttribute("title", v);
  }
  get hidden() {
    return this.hasAttribute("hidden");
  }
  set hidden(v) {
    this.boolAttr("hidden", !!v);
  }
  get open() {
    return this.hasAttribute("open");
  }
  set open(v) {
    this.boolAttr("open", !!v);
  }
  get style() {
    if (!this.styleDecl) this.styleDecl = new StyleDeclaration(this);
    return this.styleDecl;
  }

  /** adopt makes n (a node, or a text) a child-to-be of this element, taking it from its parent. @param {Node|string} n */
  adopt(n) {
    if (typeof n === "string") n = new Text(this.ownerDocument, n);
    if (!(n instanceof Node)) throw new TypeError("dom.mjs: only elements and texts can be inserted, not " + Object.prototype.toString.call(n));
    for (let a = /** @type {Element|null} */ (this); a; a = a.parentNode) if (a === n) throw new Error("dom.mjs: a node cannot contain itself");
    n.remove();
    n.parentNode = this;
    return n;
  }
  /** @param {...(Node|string)} nodes */
  append(...nodes) {
    for (const n of nodes) this.childNodes.push(this.adopt(n));
  }
  /** @param {Node} n */
  appendChild(n) {
    this.append(n);
    return n;
  }
  /** @param {...(Node|string)} nodes */
  replaceChildren(...nodes) {
    for (const c of this.childNodes) c.parentNode = null;
    this.childNodes = [];
    this.append(...nodes);
  }

  get children() {
    return /** @type {Element[]} */ (this.childNodes.filter((c) => c instanceof Element));
  }
  get firstChild() {
    return this.childNodes[0] || null;
  }

  get textContent() {
    let s = "";
    for (const c of this.childNodes) s += c.textContent;
    return s;
  }
  set textContent(v) {
    const text = v === null || v === undefined ? "" : String(v);
    this.replaceChildren(...(text === "" ? [] : [new Text(this.ownerDocument, text)]));
  }

  get innerHTML() {
    return this.childNodes.map((c) => serialize(c, this)).join("");
  }
  set innerHTML(_) {
    throw new Error("dom.mjs: innerHTML cannot be set here (markup is never parsed)");
  }
  get outerHTML() {
    return serialize(this, null);
  }

  /**
   * querySelector finds the first descendant matching a compound selector of a tag name, `.class`,
   * `#id` and `[attr]` / `[attr="value"]` parts.
   * @param {string} selector
   * @returns {Element|null}
   */
  querySelector(selector) {
    const match = compile(selector);
    /** @param {Element} e @returns {Element|null} */
    const walk = (e) => {
      for (const c of e.children) {
        if (match(c)) return c;
        const d = walk(c);
        if (d) return d;
      }
      return null;
    };
    return walk(this);
  }
}

/**
 * compile turns a compound selector into a test of one element.
 * @param {string} selector
 * @returns {(e: Element) => boolean}
 */
function compile(selector) {
  const s = selector.trim();
  const re = /([a-zA-Z][\w-]*)|\.([\w-]+)|#([\w-]+)|\[([\w-]+)(?:="([^"]*)")?\]/y;
  /** @type {((e: Element) => boolean)[]} */
  const tests = [];
  let at = 0;
  while (at < s.length) {
    re.lastIndex = at;
    const m = re.exec(s);
    if (!m) throw new SyntaxError(`dom.mjs: selector "${selector}" is not a compound of tag, .class, #id and [attr] parts`);
    at = re.lastIndex;
    const [, tag, cls, id, attr, value] = m;
    if (tag) tests.push((e) => e.localName === (e.namespaceURI === HTML_NS ? tag.toLowerCase() : tag));
    else if (cls) tests.push((e) => e.className.split(/\s+/).includes(cls));
    else if (id) tests.push((e) => e.id === id);
    else tests.push((e) => (value === undefined ? e.hasAttribute(attr) : e.getAttribute(attr) === value));
  }
  if (!tests.length) throw new SyntaxError("dom.mjs: empty selector");
  return (e) => tests.every((t) => t(e));
}

/**
 * serialize writes node as HTML (node itself, not only its children), parent being the element
 * whose children are serialized (for the raw-text rule).
 * @param {Node} node
 * @param {Element|null} parent
 * @returns {string}
 */
function serialize(node, parent) {
  if (node instanceof Text) {
    const p = node.parentNode || parent;
    if (p && p.namespaceURI === HTML_NS && RAW.has(p.localName)) return node.data;
    return escapeText(node.data);
  }
  const e = /** @type {Element} */ (node);
  let s = "<" + e.localName;
  for (const [k, v] of e.attrs) s += ` ${k}="${escapeAttr(v)}"`;
  s += ">";
  if (e.namespaceURI === HTML_NS && VOID.has(e.localName)) return s;
  for (const c of e.childNodes) s += serialize(c, e);
  return s + "</" + e.localName + ">";
}

export class Document {
  constructor() {
    this.documentElement = new Element(this, "html", HTML_NS);
    this.implementation = {
      /** @param {string} [title] */
      createHTMLDocument: (title) => Document.html(title),
    };
  }

  /**
   * html is a new document as createHTMLDocument makes it: html, head (with a title when given)
   * and body.
   * @param {string} [title]
   */
  static html(title) {
    const doc = new Document();
    const head = doc.createElement("head");
    if (title !== undefined) {
      const t = doc.createElement("title");
      t.textContent = title;
      head.append(t);
    }
    doc.documentElement.append(head, doc.createElement("body"));
    return doc;
  }

  get head() {
    return this.documentElement.children.find((c) => c.localName === "head") || null;
  }
  get body() {
    return this.documentElement.children.find((c) => c.localName === "body") || null;
  }
  /** @param {string} tag */
  createElement(tag) {
    return new Element(this, String(tag), HTML_NS);
  }
  /** @param {string} ns @param {string} name */
  createElementNS(ns, name) {
    if (ns !== HTML_NS && ns !== SVG_NS) throw new Error("dom.mjs: only HTML and SVG elements, not " + ns);
    return new Element(this, String(name), ns);
  }
  /** @param {string} text */
  createTextNode(text) {
    return new Text(this, String(text));
  }
  /** @param {string} selector */
  querySelector(selector) {
    const match = compile(selector);
    return match(this.documentElement) ? this.documentElement : this.documentElement.querySelector(selector);
  }
}
