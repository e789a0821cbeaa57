"""The judge web service: FastAPI app, JSON API and Jinja2 pages (routes only wire things)."""
