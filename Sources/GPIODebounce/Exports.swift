// `import GPIODebounce` is all a program needs: the event, strategy and gesture types come along.
@_exported import DebounceCore
@_exported import enum Settings.Bias
@_exported import enum GPIODBackend.GPIOError
@_exported import enum EventLoop.LoopError
@_exported import enum LineInput.LineError
