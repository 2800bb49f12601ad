"""Spreadsheets and delimited text: XLSX, XLS, CSV and TSV, through one grid of cell values into tables."""
