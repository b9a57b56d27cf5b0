"""The JSON API under /api/v1, described by the OpenAPI document at /api/v1/openapi.json.

It shares the services with the HTML views: this package only reads JSON, maps player ids to seats,
and writes documents. Every rule of the game is checked by scorer.scoring and scorer.services.
"""
