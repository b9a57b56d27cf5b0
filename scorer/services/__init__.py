"""Use cases: each takes a database session, loads models, calls scorer.scoring, saves and commits.

Services never touch the request or templates; views translate their errors into responses.
"""
