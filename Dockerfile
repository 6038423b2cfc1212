# Table Companion: gunicorn serving the Flask app. SQLite lives on the volume mounted at /data;
# set DATABASE_URL (PostgreSQL) instead when running more than one machine.
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PORT=8080 \
    COMPANION_INSTANCE=/data \
    TRUST_PROXY=1 \
    SESSION_COOKIE_SECURE=1

WORKDIR /app
COPY pyproject.toml ./
COPY companion ./companion
RUN pip install .  && pip uninstall -y companion
COPY . .
# Compile the translation catalogs now: the running app may not write into its own folder.
RUN python scripts/i18n.py compile && useradd --create-home --uid 10001 app && mkdir -p /data && chown app /data
USER app

EXPOSE 8080
CMD ["gunicorn", "-c", "gunicorn.conf.py"]
