"""Sobremesa's engine: pure rules, the table service, persistence and live notification.

Nothing in this package imports Streamlit.
"""
