"""Blueprints, one per area. A view parses the request, calls a service and renders or redirects."""
