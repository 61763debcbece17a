"""The functions of ``nn.functional``, one module per family (named as ``nn/modules/`` names the layers that
call them). Import them from ``autograd_tutor.nn.functional``."""
