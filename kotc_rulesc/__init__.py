"""kotc-rulesc: the rules-as-data compiler and edition migrator for Keeper of the Cards."""

__version__ = "0.1.0"
