"""Test doubles that are real implementations of the store's narrow protocols (``ulti.store.ports``)."""
