/**
 * A strict reader of XML property lists: well-formed XML (sax in strict mode), a single <plist> root, and only the
 * plist DTD's elements in their places (a <dict> of <key>/value pairs without duplicate keys, <array>, <string>,
 * <integer>, <real>, <true/>, <false/>, <date>, <data>). Anything else is an error naming what and where.
 */
import sax from 'sax';

export type PlistValue = string | number | boolean | PlistValue[] | PlistDict;
export interface PlistDict {
  [key: string]: PlistValue;
}

interface XmlElement {
  name: string;
  attributes: Record<string, string>;
  children: XmlElement[];
  text: string;
  line: number;
}

function parseXml(xml: string): XmlElement {
  const parser = sax.parser(true, {});
  const document: XmlElement = { name: '#document', attributes: {}, children: [], text: '', line: 0 };
  const open = [document];
  const current = () => open[open.length - 1] ?? document;
  parser.onerror = (error) => {
    throw new Error(`not well-formed XML: ${error.message}`);
  };
  parser.onopentag = (tag) => {
    const attributes = Object.fromEntries(
      Object.entries(tag.attributes).map(([name, value]) => [
        name,
        typeof value === 'string' ? value : value.value,
      ]),
    );
    const element: XmlElement = { name: tag.name, attributes, children: [], text: '', line: parser.line + 1 };
    current().children.push(element);
    open.push(element);
  };
  parser.onclosetag = () => {
    open.pop();
  };
  parser.ontext = (text) => {
    current().text += text;
  };
  parser.oncdata = (text) => {
    current().text += text;
  };
  parser.write(xml).close();
  return document;
}

function fail(element: XmlElement, problem: string): never {
  throw new Error(`line ${element.line}: <${element.name}> ${problem}`);
}

function leaf(element: XmlElement): string {
  if (element.children.length > 0) fail(element, `holds an element, <${element.children[0]?.name}>`);
  return element.text;
}

function value(element: XmlElement): PlistValue {
  switch (element.name) {
    case 'string':
      return leaf(element);
    case 'integer': {
      const text = leaf(element).trim();
      if (!/^[+-]?\d+$/.test(text)) fail(element, `is not an integer: ${JSON.stringify(text)}`);
      return Number(text);
    }
    case 'real': {
      const number = Number(leaf(element).trim());
      if (!Number.isFinite(number)) fail(element, `is not a number: ${JSON.stringify(element.text)}`);
      return number;
    }
    case 'true':
    case 'false':
      if (leaf(element).trim() !== '') fail(element, 'must be empty');
      return element.name === 'true';
    case 'date': {
      const text = leaf(element).trim();
      if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/.test(text))
        fail(element, `is not an ISO 8601 date: ${text}`);
      return text;
    }
    case 'data': {
      const text = leaf(element).replace(/\s+/g, '');
      if (!/^[A-Za-z0-9+/]*={0,2}$/.test(text)) fail(element, 'is not base64');
      return text;
    }
    case 'array':
      noText(element);
      return element.children.map(value);
    case 'dict':
      return dict(element);
    default:
      return fail(element, 'is not a property list element');
  }
}

function noText(element: XmlElement): void {
  if (element.text.trim() !== '') fail(element, `holds text: ${JSON.stringify(element.text.trim())}`);
}

function dict(element: XmlElement): PlistDict {
  noText(element);
  const entries: PlistDict = {};
  const children = element.children;
  for (let i = 0; i < children.length; i += 2) {
    const key = children[i];
    const entry = children[i + 1];
    if (!key || key.name !== 'key') fail(key ?? element, 'where a <key> belongs');
    const name = leaf(key);
    if (!entry) fail(key, `${name} has no value`);
    if (entry.name === 'key') fail(entry, `follows <key>${name}</key>, which has no value`);
    if (Object.hasOwn(entries, name)) fail(key, `${name} appears twice`);
    entries[name] = value(entry);
  }
  return entries;
}

/** The property list's root value; throws on anything that is not a well-formed XML plist. */
export function parsePlist(xml: string): PlistValue {
  const document = parseXml(xml);
  const [plist, ...more] = document.children;
  if (!plist || plist.name !== 'plist' || more.length > 0)
    throw new Error('the document is not one <plist> element');
  if (plist.attributes.version !== '1.0') fail(plist, 'must have version="1.0"');
  noText(plist);
  if (plist.children.length !== 1 || !plist.children[0]) fail(plist, 'must hold exactly one value');
  return value(plist.children[0]);
}
