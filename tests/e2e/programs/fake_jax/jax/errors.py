class JaxRuntimeError(RuntimeError):
    pass
