# zhisai in production: PostgreSQL through ZHISAI_DATABASE_URL, a real ZHISAI_SECRET_KEY.
FROM python:3.12-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    ZHISAI_ENVIRONMENT=production

WORKDIR /app
COPY pyproject.toml README.md ./
COPY api ./api
COPY domain ./domain
COPY storage ./storage
COPY zhisai ./zhisai
COPY migrations ./migrations
RUN pip install . \
    && useradd --create-home --uid 10001 zhisai \
    && mkdir -p /app/data \
    && chown zhisai /app/data

USER zhisai
EXPOSE 8000
# Migrations first, then the server; `exec` so uvicorn receives the container's signals.
CMD ["sh", "-c", "zhisai migrate && exec uvicorn api.app:create_app --factory --host 0.0.0.0 --port 8000 --proxy-headers"]
