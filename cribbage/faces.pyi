# Types for faces.py, which keeps to plain Python (it also runs in the page's MicroPython UI).
RANK_CODES: str
SUIT_CODES: str
SUIT_SYMBOLS: str

def face(code: str) -> str: ...
