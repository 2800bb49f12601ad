"""A site's menus: lists of links alone, before the page's first level-one heading.

A page's own content starts at its title; what stands before it in lists whose every letter is a link's (Home, Who We
Are, Research, …; a breadcrumb trail; a language picker) is the site around the page. Such lists after the title
stay: a contents list, "See also", a list of references.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from docshelf.parsers.markup.html_tables import local_name

if TYPE_CHECKING:
    from lxml import etree

MIN_MENU_ITEMS = 3


def menus_before_title(root: etree._Element) -> set[etree._Element]:
    """The lists of links alone that come before the page's first <h1> (none when it has no <h1>)."""
    lists: list[etree._Element] = []
    for element in root.iter():
        name = local_name(element)
        if name == "h1":
            return {found for found in lists if _links_only(found)}
        if name in ("ul", "ol") and not any(local_name(outer) in ("ul", "ol") for outer in element.iterancestors()):
            lists.append(element)
    return set()


def _links_only(element: etree._Element) -> bool:
    """Three items or more, and every letter of the list is a link's."""
    items = [child for child in element if local_name(child) == "li"]
    if len(items) < MIN_MENU_ITEMS:
        return False
    linked = sum(
        _letters(link)
        for link in element.iter()
        if local_name(link) == "a" and not any(local_name(outer) == "a" for outer in link.iterancestors())
    )
    return linked > 0 and linked == _letters(element)


def _letters(element: etree._Element) -> int:
    return sum(len("".join(str(part).split())) for part in element.itertext())
