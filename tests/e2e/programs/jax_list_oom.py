# Keeps every step's 16 MiB array in a list until XLA's pool is full, as a
# loop that stores its outputs does (tests/e2e/programs/fake_jax stands in
# for JAX). "uncaught": the failure ends the program; else it is caught and
# the program goes on to exit with the arrays still alive.
import sys

import jax
import jax.numpy as jnp

kept = []


def fill():
    kept.append(jnp.zeros((4096, 1024), dtype="float32"))  # LINE:keep


def main():
    params = jnp.zeros((1024,), dtype="float32")  # LINE:params
    if sys.argv[1:] == ["uncaught"]:
        while True:
            fill()
    try:
        while True:
            fill()
    except jax.errors.JaxRuntimeError:
        print("out of memory after", len(kept), "steps")
    return params


main()
