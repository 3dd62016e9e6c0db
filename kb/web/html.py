"""HTML rendering: Jinja2 templates from ``kb/web/templates``, escaped always.

Autoescaping is on for every template (text from the rules is data, never
markup); nothing in the templates may use ``|safe`` on text that came from the
store. :func:`page` renders a template inside ``base.html``'s layout.
"""

from __future__ import annotations

from functools import lru_cache

from jinja2 import Environment, PackageLoader, StrictUndefined, select_autoescape
from starlette.responses import HTMLResponse

from ingest import numbers

from .context import WebContext


@lru_cache(maxsize=1)
def environment() -> Environment:
    env = Environment(
        loader=PackageLoader("kb.web", "templates"),
        autoescape=select_autoescape(default=True, default_for_string=True),
        undefined=StrictUndefined,  # a misspelt variable is an error, not an empty string
        trim_blocks=True,
        lstrip_blocks=True,
        auto_reload=False,  # package data: no stat of every template file on every render
    )
    env.tests["subrule"] = numbers.is_subrule  # {% if number is subrule %}: the rule-number grammar's
    return env


def render(ctx: WebContext, template: str, **values) -> str:
    return environment().get_template(template).render(ctx=ctx, href=ctx.href, **values)


def page(ctx: WebContext, template: str, status: int = 200, headers: dict | None = None, **values) -> HTMLResponse:
    return HTMLResponse(render(ctx, template, status=status, **values), status_code=status, headers=headers)
