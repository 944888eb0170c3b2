import { describe, expect, test } from "bun:test";
import { elementsWithId } from "./verify-xml.js";
import { parseXmlTree } from "./xml-tree.js";

describe("elementsWithId", () => {
  const doc = parseXmlTree(
    `<a ID="x"><b><c Id="x"/><d id="y"/></b><e><f id="x"><g ID="x"/></f></e><h ref="x"/><!-- <i ID="x"/> --></a>`,
  );

  test("finds every element whose ID, Id or id equals the value, in document order, nested ones included", () => {
    expect(elementsWithId(doc, "x").map((e) => e.localName)).toEqual(["a", "c", "f", "g"]);
    expect(elementsWithId(doc, "y").map((e) => e.localName)).toEqual(["d"]);
  });

  test("other attributes, comments and absent values find nothing", () => {
    expect(elementsWithId(doc, "z")).toEqual([]);
    expect(elementsWithId(parseXmlTree(`<r><s ref="q"/></r>`), "q")).toEqual([]);
  });
});
