"""The library's version, in a module of its own that imports nothing.

Code anywhere in the package (the solver's cache key, for one) reads the version
here rather than from the package root, which imports everything.
"""

__version__ = "1.0.0"
