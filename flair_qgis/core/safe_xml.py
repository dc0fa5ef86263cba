"""Reading the small XML files GDAL writes next to a raster (``.vrt``, ``.aux.xml``), hardened.

A raster's sidecars come with the data, from anyone: the parser refuses what XML attacks need
(entity declarations, the "billion laughs" expansion; external entities and DTDs fetched from
elsewhere) and reads the rest into a small tree. It is pyexpat driven directly, because
``xml.etree`` and ``xml.dom`` expand internal entities, and neither defusedxml nor lxml ships with
every QGIS.

Public API: :func:`parse_file`, :class:`XmlElement`, :class:`XmlRefused`.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import NoReturn
from xml.parsers import expat

MAX_BYTES = 64 * 1024 * 1024
"""A larger sidecar is not read (a VRT of a million sources is about 400 MB; none of ours is near)."""


class XmlRefused(ValueError):  # noqa: N818 - read like ExpatError, which callers catch with it
    """The file is not well-formed XML, or declares entities (refused, never expanded)."""


@dataclass
class XmlElement:
    """One element: its tag, attributes, text (before the first child) and children."""

    tag: str
    attrib: dict[str, str]
    text: str = ""
    children: list[XmlElement] = field(default_factory=list)

    def get(self, name: str, default: str | None = None) -> str | None:
        return self.attrib.get(name, default)

    def find(self, tag: str) -> XmlElement | None:
        """The first child named ``tag``, or None."""
        return next((child for child in self.children if child.tag == tag), None)

    def iter(self, tag: str | None = None) -> Iterator[XmlElement]:
        """This element and all below it, in document order (``tag``: only those named so)."""
        if tag is None or self.tag == tag:
            yield self
        for child in self.children:
            yield from child.iter(tag)

    def __iter__(self) -> Iterator[XmlElement]:
        return iter(self.children)


def _refuse(*_args: object) -> NoReturn:
    raise XmlRefused("entity declarations and external entities are refused")


def parse_bytes(data: bytes) -> XmlElement:
    """The root element of an XML document.

    Raises:
        XmlRefused: not well-formed, or it declares an entity or refers to an external one.
    """
    parser = expat.ParserCreate()
    parser.SetParamEntityParsing(expat.XML_PARAM_ENTITY_PARSING_NEVER)
    parser.EntityDeclHandler = _refuse
    parser.UnparsedEntityDeclHandler = _refuse
    parser.ExternalEntityRefHandler = _refuse
    stack: list[XmlElement] = []
    roots: list[XmlElement] = []

    def start(tag: str, attrib: dict[str, str]) -> None:
        element = XmlElement(tag, dict(attrib))
        (stack[-1].children if stack else roots).append(element)
        stack.append(element)

    def end(_tag: str) -> None:
        stack.pop()

    def text(data: str) -> None:
        if stack and not stack[-1].children:
            stack[-1].text += data

    parser.StartElementHandler = start
    parser.EndElementHandler = end
    parser.CharacterDataHandler = text
    try:
        parser.Parse(data, True)
    except expat.ExpatError as err:
        raise XmlRefused(str(err)) from err
    if not roots:
        raise XmlRefused("no root element")
    return roots[0]


def parse_file(path: str) -> XmlElement:
    """:func:`parse_bytes` of a file.

    Raises:
        OSError: the file cannot be read.
        XmlRefused: as :func:`parse_bytes`, or the file is over :data:`MAX_BYTES`.
    """
    with open(path, "rb") as handle:
        data = handle.read(MAX_BYTES + 1)
    if len(data) > MAX_BYTES:
        raise XmlRefused(f"over {MAX_BYTES} bytes")
    return parse_bytes(data)


def canonical_text(element: XmlElement) -> str:
    """The element as one line of text, blind to layout: text stripped, attributes sorted, children in order."""
    attrib = "".join(f" {name}={value!r}" for name, value in sorted(element.attrib.items()))
    inner = "".join(canonical_text(child) for child in element.children)
    return f"<{element.tag}{attrib}>{element.text.strip()}{inner}</{element.tag}>"
