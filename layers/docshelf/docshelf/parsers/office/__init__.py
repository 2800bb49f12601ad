"""Word-processing and presentation files: DOCX, DOC, PPTX, PPT, ODT and RTF."""
