"""The reader of the game's own documents: the Card Building Guides and Rulebooks.

One reader, used by ``kotc-rulesc import-edition`` (a draft rules file from an edition's two
pages) and by the tests that check ``rules/`` against the documents:

- :mod:`.html` — an HTML page as a tree (the standard library's parser), its text, MathML as the
  guide's formula notation;
- :mod:`.outline` — a page as heading blocks of paragraphs, lists and tables, each in force or a
  draft (inside an HTML comment), and sentences;
- :mod:`.guide` — a guide page's components (kind, text, formula, what it sets, Ultra Points) and
  its prose;
- :mod:`.rulebook` — a rulebook page's lists (refurbished rows, redacted texts, revised levels…)
  and the clean slate it declares; :mod:`.parameters` its parameters, each with its sentence;
- :mod:`.transcript` — the text documents: the 1st–10th guides and rulebooks (PDF transcriptions)
  and the seeds' 11th pre-release.

Nothing here imports the rules' model: what is read is the documents' own words.
"""
