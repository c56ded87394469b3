"""Document-reading engines: input inspection, text layer, rasteriser and OCR.

Submodules are imported where they are used (``quire.engines.inspect``,
``quire.engines.reader``, ``quire.engines.ocr``) so that importing the package
stays cheap and loads no PDF or image library.
"""
