"""companion: a phone-first web app that keeps a board-game table's bookkeeping right and fast."""
from __future__ import annotations

import os

from flask import Flask, request
from werkzeug.middleware.proxy_fix import ProxyFix

from . import assets, config, db, errors, limits, numbers, security
from .extensions import babel, compress, csrf, htmx


def create_app(test_config: dict | None = None) -> Flask:
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    app = Flask(
        __name__,
        instance_path=os.environ.get("COMPANION_INSTANCE") or os.path.join(root, "instance"),
        instance_relative_config=True,
        static_folder=None,
        template_folder=os.path.join(root, "templates"),
    )
    os.makedirs(app.instance_path, exist_ok=True)
    app.config.from_mapping(config.defaults(app.instance_path))
    app.config.from_pyfile("config.py", silent=True)
    if test_config:
        app.config.update(test_config)
    if not app.config.get("SECRET_KEY"):
        app.config["SECRET_KEY"] = config._secret_key(app.instance_path)
    if app.config["TRUST_PROXY"]:
        app.wsgi_app = ProxyFix(app.wsgi_app, x_for=1, x_proto=1, x_host=1)

    from .i18n import compile_catalogs, install_fast_gettext, render_message, select_locale, translation_directories

    compile_catalogs()

    app.config["BABEL_TRANSLATION_DIRECTORIES"] = ";".join(translation_directories())
    babel.init_app(app, locale_selector=select_locale)
    install_fast_gettext(app)
    csrf.init_app(app)
    htmx.init_app(app)
    compress.init_app(app)
    db.init_app(app)
    assets.init_app(app)
    security.init_app(app)
    errors.init_app(app)
    numbers.init_app(app)
    limits.init_app(app)

    from . import core
    from .api import api
    from .games import GAMES
    from .plays.groups import bp as groups_bp
    from .plays.views import listen_to_tables
    from .tables.game import register_games
    from .rules import bp as rules_bp
    from .tables.views import bp as tables_bp

    csrf.exempt(api)
    app.register_blueprint(core.bp)
    app.register_blueprint(tables_bp)
    app.register_blueprint(rules_bp)
    app.register_blueprint(groups_bp)
    register_games(app, GAMES)
    listen_to_tables(app)
    from .tables import stream

    stream.init_app(app)  # push: "this table is now at version N" (Server-Sent Events)
    for game in GAMES.values():
        if game.blueprint is not None:
            app.register_blueprint(game.blueprint)
    # After the games: they add their endpoints to the API blueprint when imported.
    app.register_blueprint(api)
    # "groups": a table joining or leaving a group, its notes and roles count as changes of that table.
    limits.limit_table_actions(app, ["tables", "groups", *(g.key for g in GAMES.values() if g.blueprint is not None)])

    from .cli import migrate_command, retention_command

    app.cli.add_command(migrate_command)
    app.cli.add_command(retention_command)

    @app.context_processor
    def globals_for_templates():
        from flask_babel import get_locale

        from .tables.players import COLOUR_NAMES, COLOURS
        from .tables.store import STATUS_NAMES

        return {
            "all_games": GAMES,
            "status_names": STATUS_NAMES,
            "colour_names": COLOUR_NAMES,
            "colours": COLOURS,
            "colours_list": COLOURS,
            "theme": request.cookies.get("theme", "auto") if request else "auto",
            "locale": str(get_locale()),
            "message": render_message,
        }

    return app
