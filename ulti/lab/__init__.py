"""The laboratory: where bot ideas are tried and measured, apart from the product.

``configs`` holds the arena-only bot configurations (each a product bot with other settings, plus at
most the one part it tries); ``arena`` plays two configurations against each other on duplicate deals.
The server never imports this package (an import contract in ``make check`` holds it), and an
arena-only configuration reserves no player name. What each idea tried and measured is a row of the
journal, ``docs/lab-journal.md``; an idea that lost is deleted from the tree, its code left in git.
"""
