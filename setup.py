"""Build of the compiled solver core; all other metadata lives in pyproject.toml."""

from Cython.Build import cythonize
from setuptools import Extension, setup

setup(
    ext_modules=cythonize(
        [Extension("ulti.bots.solver._dd", ["ulti/bots/solver/_dd.pyx"], extra_compile_args=["-O3"])],
        compiler_directives={"language_level": "3"},
    ),
)
