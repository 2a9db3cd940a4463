# Keeps one 1 GiB array per step in a list until XLA's pool is full, then
# catches the failure (argument "uncaught": lets it end the program). Prints
# how many arrays fit and the time from the failing step's start to the
# handler (what cudaleak adds to it is its failure-to-text delay).
import sys
import time

import jax
import jax.numpy as jnp

kept = []


def step(i):
    kept.append(jnp.full((16384, 16384), i, dtype=jnp.float32))  # LINE:keep
    kept[-1].block_until_ready()


def main():
    if sys.argv[1:] == ["uncaught"]:
        i = 0
        while True:
            step(i)
            i += 1
    started = 0
    try:
        for i in range(100000):
            started = time.monotonic_ns()
            step(i)
    except Exception as e:
        handled = time.monotonic_ns()
        print("kept %d arrays; exception %s.%s" % (len(kept), type(e).__module__, type(e).__qualname__))
        print("FAILURE_TO_HANDLER_MS %.1f" % ((handled - started) / 1e6))


main()
