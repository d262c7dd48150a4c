"""Migrate card collections from their editions to a later one (``kotc-rulesc migrate``)."""
