"""StreamField blocks of the rule texts: section headings with anchors, paragraphs (fan names
and section references are linked when the page is shown), lists, tables, worked examples."""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _
from wagtail import blocks
from wagtail.contrib.table_block.blocks import TableBlock
from wagtail.images.blocks import ImageBlock
from wagtail.snippets.blocks import SnippetChooserBlock


class SectionHeadingBlock(blocks.StructBlock):
    number = blocks.CharBlock(label=_("number"), required=False, help_text=_('E.g. "3.9.1".'))
    anchor = blocks.RegexBlock(
        regex=r"^[a-z0-9-]*$",
        label=_("anchor"),
        required=False,
        help_text=_('Link target of the section, e.g. "3-9-1" for #3-9-1. Keep it stable.'),
        error_messages={"invalid": _("Use lower-case letters, digits and hyphens only.")},
    )
    level = blocks.ChoiceBlock(
        choices=[("2", "2"), ("3", "3"), ("4", "4"), ("5", "5")], default="3", label=_("level")
    )
    title = blocks.CharBlock(label=_("title"))

    class Meta:
        icon = "title"
        label = _("Section heading")
        template = "content/blocks/section_heading.html"


class RuleListBlock(blocks.StructBlock):
    ordered = blocks.BooleanBlock(label=_("numbered"), required=False)
    items = blocks.ListBlock(blocks.TextBlock(label=_("item")), label=_("items"))

    class Meta:
        icon = "list-ul"
        label = _("List")


class WorkedExampleBlock(blocks.StructBlock):
    example = SnippetChooserBlock("rulebook.WorkedExample", label=_("worked example"))

    class Meta:
        icon = "doc-full"
        label = _("Worked example")


class RuleTextBlock(blocks.StreamBlock):
    heading = SectionHeadingBlock()
    paragraph = blocks.TextBlock(
        label=_("Paragraph"),
        icon="pilcrow",
        help_text=_("Fan names and references like «см. 3.9.1.5» become links on the page."),
    )
    list = RuleListBlock()
    table = TableBlock(label=_("Table"), table_options={"renderer": "text"})
    example = WorkedExampleBlock()


# --- News posts (docs/decisions/0530) ----------------------------------------------------

LINK_KINDS = [
    ("fan", _("Fan")),
    ("tournament", _("Tournament")),
    ("player", _("Player")),
]


class SiteLinkBlock(blocks.StructBlock):
    """A link to a fan (``mcr:48``), a tournament or a player (their number), shown in the
    reader's language; checked when the editor saves."""

    kind = blocks.ChoiceBlock(choices=LINK_KINDS, label=_("link to"))
    target = blocks.CharBlock(
        label=_("which"),
        help_text=_('A fan as "mcr:48", a tournament or player by its number, e.g. "12".'),
    )
    text = blocks.CharBlock(label=_("link text"))

    class Meta:
        icon = "link"
        label = _("Link to a fan, tournament or player")

    def clean(self, value):
        from django.core.exceptions import ValidationError
        from wagtail.blocks.struct_block import StructBlockValidationError

        from content.news import site_link_url

        value = super().clean(value)
        if site_link_url(value["kind"], value["target"]) is None:
            raise StructBlockValidationError(
                block_errors={"target": ValidationError(_("Nothing of that kind has this number."))}
            )
        return value


class NewsBodyBlock(blocks.StreamBlock):
    paragraph = blocks.RichTextBlock(
        label=_("Text"), features=["h3", "h4", "bold", "italic", "ol", "ul", "link"]
    )
    image = ImageBlock(label=_("Image"))
    example = WorkedExampleBlock()
    link = SiteLinkBlock()
