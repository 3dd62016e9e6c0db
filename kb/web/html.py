"""HTML rendering: Jinja2 templates from ``kb/web/templates``, escaped always.

Autoescaping is on for every template (text from the rules is data, never
markup); nothing in the templates may use ``|safe`` on text that came from the
store. :func:`page` renders a template inside ``base.html``'s layout.
"""

from __future__ import annotations

from functools import lru_cache

from jinja2 import Environment, PackageLoader, StrictUndefined, select_autoescape
from markupsafe import Markup, escape
from starlette.responses import HTMLResponse

from rulekb.ingest import numbers

from .context import WebContext
from .kept import Kept, digest

_DICT_NAMES = frozenset(dir(dict))


class _Environment(Environment):
    def getattr(self, obj, attribute):
        """``a.b`` on a dict: its key first. Jinja tries the attribute first, and for a dict that
        raises AttributeError on every key the pages print (a third of a rule page's rendering);
        a name that is not one of dict's own gives the same value either way. The rest is
        Jinja's own ``getattr``."""
        if type(obj) is dict and attribute not in _DICT_NAMES:
            try:
                return obj[attribute]
            except KeyError:
                pass
        try:
            return getattr(obj, attribute)
        except AttributeError:
            pass
        try:
            return obj[attribute]
        except (TypeError, LookupError, AttributeError):
            return self.undefined(obj=obj, name=attribute)


_TAGS = {"mark": "mark", "ins": "ins", "del": "del"}


def segment_markup(items, href) -> Markup:
    """Text from the store as kb.web.markup's segments, each escaped and wrapped in the tag its
    kind names (the ``segments`` macro of _segments.html; in Python, a macro call and an
    autoescaped expression per segment cost a rule page a fifth of its rendering)."""
    out = []
    for s in items:
        kind, text = s.kind, escape(s.text)
        if kind == "link":
            out.append(f'<a class="cite" href="{escape(href(s.target))}">{text}</a>')
        elif kind == "dangling":
            out.append(f'<span class="dangling" title="this edition has no rule {text}">{text}</span>')
        elif kind in _TAGS:
            out.append(f"<{kind}>{text}</{kind}>")
        else:
            out.append(text)
    return Markup("".join(out))


ROWS_KEPT = Kept(max_entries=32_768, max_bytes=32_000_000)  # rendered history rows, per process


def history_row(period: dict, ctx) -> Markup:
    """One row of a rule's history table (``_history_row.html``). The same period (a wording of
    the lineage, its diff from the one before) is a row of the page of every version of the
    lineage: rendered once per process for each distinct period and base (a pure function of
    both; a period holding something unhashable is rendered each time), kept in
    :data:`ROWS_KEPT` (by a digest of the period: the key does not hold its texts)."""
    try:
        key = tuple(period.items())
        hash(key)
    except TypeError:
        return _history_row(ctx, period)
    return Markup(_kept_row(ctx.base, key))


def _kept_row(base: str, key: tuple) -> str:
    """Kept as a plain string: an object the garbage collector does not track, so a full
    collection does not walk the cache (a pause in a page's latency)."""
    name = digest(base, repr(key))
    found = ROWS_KEPT.get(name)
    if found is None:
        from .context import WebContext

        found = str(_history_row(WebContext(store=None, base=base), dict(key)))
        ROWS_KEPT.put(name, found)
    return found


def _history_row(ctx, period: dict) -> Markup:
    return Markup(environment().get_template("_history_row.html").render(p=period, ctx=ctx, href=ctx.href))


@lru_cache(maxsize=1)
def environment() -> Environment:
    env = _Environment(
        loader=PackageLoader("rulekb.kb.web", "templates"),
        autoescape=select_autoescape(default=True, default_for_string=True),
        undefined=StrictUndefined,  # a misspelt variable is an error, not an empty string
        trim_blocks=True,
        lstrip_blocks=True,
        auto_reload=False,  # package data: no stat of every template file on every render
    )
    env.globals["segment_markup"] = segment_markup
    env.globals["history_row"] = history_row
    env.tests["subrule"] = numbers.is_subrule  # {% if number is subrule %}: the rule-number grammar's
    return env


def render(ctx: WebContext, template: str, **values) -> str:
    return environment().get_template(template).render(ctx=ctx, href=ctx.href, **values)


def page(ctx: WebContext, template: str, status: int = 200, headers: dict | None = None, **values) -> HTMLResponse:
    return HTMLResponse(render(ctx, template, status=status, **values), status_code=status, headers=headers)
