/*
 * yaml_shim.h: libyaml (Debian's libyaml-dev, 0.2.x: the YAML 1.1 parser that PyYAML and Ruby's
 * Psych wrap) for Swift, plus the nesting check that later libyaml releases make themselves.
 *
 * The YAMLDocument target reads events with yaml_parser_parse and builds its own tree; it never
 * uses libyaml's document loader, which refuses a repeated anchor name that YAML allows.
 */
#ifndef GPIO_DEBOUNCE_YAML_SHIM_H
#define GPIO_DEBOUNCE_YAML_SHIM_H

#include <yaml.h>
#include <stdbool.h>

/* Whether the collection whose start event yaml_parser_parse has just returned nests deeper than
 * `limit` levels: the block indentation levels open (parser->indents) plus the flow collections the
 * scanner has opened (parser->flow_level, which may count a few collections ahead of the event). A
 * sequence without indentation under a mapping key (`key:` then `- item` lines) opens no level and is
 * never refused. The rule, and so the position reported, is the one libyaml applies itself since its
 * release after 0.2.5 (yaml_set_max_nest_level, 1000 by default); 0.2.5 nests without bound. */
static inline bool gdy_nesting_exceeds(const yaml_parser_t *parser, int limit) {
    if (parser->state == YAML_PARSE_INDENTLESS_SEQUENCE_ENTRY_STATE) return false;
    return (parser->indents.top - parser->indents.start) >= limit - parser->flow_level;
}

#endif
