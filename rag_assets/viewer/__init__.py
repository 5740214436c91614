"""The evidence viewer: a cited page rendered as an image with the quoted lines and the picked figures
highlighted, served on 127.0.0.1 (``rag-assets view``)."""
