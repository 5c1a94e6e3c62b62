// The reference parser of issue 13: the ANTLR grammar of EasyFlow from the
// original program description (RU.СНАБ.80066-06 13 19, appendix 3; the
// seed `shared/seeds/004_…`), written in ANTLR 4 notation. Only what ANTLR 4
// requires or what the document's layout garbled is changed, each marked
// "(changed)"; the structure (whitespace as tokens the parser sees, one
// token per space) is the original's, as is its cost.

grammar EasyFlow;

// (changed) EOF, so that the whole text is parsed.
program
  : wsns ( topClause wsns )* EOF
  ;

// white space rule
wsn
  : WS
  | NEWLINE
  ;

wsnp
  : wsn+
  ;

wsns
  : wsn*
  ;

requireClause
  : REQUIRE wsnp idList wsns SEMICOLON
  ;

idList
  : ID (wsns COMMA wsns next=ID)*
  ;

// (changed) no empty alternative: ANTLR 4 refuses a loop over one.
topClause
  : flowAttributeClause
  | stepClause
  | requireClause
  ;

flowAttributeClause
  : LSQ wsns FLOW wsns COLON wsns ID wsns ASSIGN wsns expression RSQ
  ;

attribute
  : LSQ wsns ID wsns ASSIGN wsns expression wsns RSQ
  ;

attributes
  : (attribute wsns)*
  ;

// (changed) the document's layout split the header into alternatives
// (`| attributes … id` / `| RUNS …`): it is one sequence.
stepClause
  : attributes (TILDA)? STEP wsnp id wsnp RUNS wsnp compoundName
    (wsnp AFTER wsnp idList)? // Run conditions end
    wsns LPAREN wsns (APP wsns COLON wsns)? namedParametersList?
    ((EXEC wsns COLON wsns) execParams=namedParametersList)?
    RPAREN
    (wsns POST WS+ CODE_BLOCK)?
    (wsns SEMICOLON)?
  ;

varIdentifierList
  : varIdentifier (wsns COMMA wsns varIdentifier)*
  ;

varIdentifier
  : simpleVarIdentifier ( wsns DOT wsns simpleVarIdentifier)*
  ;

// (changed) no `returns [SimpleVarIdentifier …]`: a C# action type.
simpleVarIdentifier
  : ID (wsns varIndexer)?
  ;

varName
  : ID
  ;

varIndexer
  : LSQ wsns expression wsns RSQ
  ;

filePointer
  : ID
  ;

compoundName
  : compoundNameComponent ( wsns DOT wsns compoundNameComponent)*
  ;

compoundNameComponent
  : ID
  ;

namedParametersList
  : namedParameter wsns
    (((COMMA wsns namedParameter wsns)+ (COMMA wsns)?) | (COMMA wsns)?)
  ;

namedParameter
  : COLON? ID wsns (ASSIGN | ARROW) wsns (SWEEP wsns)? expression
  ;

expression
  : STRING
  | INT
  | DOUBLE
  | BOOL
  | list
  | ID_CONST
  | varIdentifier
  ;

list
  : LSQ wsns expressionList? RSQ
  ;

expressionList
  : expression wsns (COMMA wsns expression wsns)*
  ;

id
  : ID
  ;

// (changed) ANTLR 4 notation for non-greedy loops and hidden channels.
ML_COMMENT
  : '/*' .*? '*/' -> channel(HIDDEN)
  ;

SL_COMMENT
  : '//' ~[\r\n]* NEWLINE -> channel(HIDDEN)
  ;

POST
  : 'post';

fragment CODE
  : 'code';

PRE
  : 'pre';

fragment END
  : 'end';

CODE_BLOCK
  : CODE .*? CODE ( ' ' | '\t' )+ END
  ;

WS
  : ' '
  | '\t'
  ;

ARROW
  : '<-'
  ;

LCUR
  : '{'
  ;

RCUR
  : '}'
  ;

LSQ
  : '['
  ;

RSQ
  : ']'
  ;

LPAREN
  : '('
  ;

RPAREN
  : ')'
  ;

ASSIGN
  : '='
  ;

SEMICOLON
  : ';'
  ;

COLON
  : ':'
  ;

FLOW
  : 'flow'
  ;

APP
  : 'app'
  ;

EXEC
  : 'exec'
  ;

REQUIRE
  : 'require'
  ;

STEP
  : 'step'
  ;

SWEEP
  : 'sweep'
  ;

RUNS
  : 'runs'
  ;

AFTER
  : 'after'
  ;

ON
  : 'on'
  ;

BOOL
  : ('true') | ('false')
  ;

ID_CONST
  : '@' ID_BASE
  ;

ID
  : ID_BASE
  ;

fragment ID_BASE
  : ('a'..'z'|'A'..'Z'|'_') ('a'..'z'|'A'..'Z'|'0'..'9'|'_')*
  ;

// (changed) `'\\ '` in the document is `'\\'`.
STRING
  : '"' ( ~( '\\' | '"' ) | ESC_SEQ )* '"'
  ;

DOUBLE
  : ('+' | '-')? DEC_DIGIT+ '.' DEC_DIGIT* EXPONENT?
  | ('+' | '-')? '.' DEC_DIGIT+ EXPONENT?
  | ('+' | '-')? DEC_DIGIT+ EXPONENT
  ;

INT : ('+' | '-')? DEC_DIGIT+
  ;

fragment DEC_DIGIT : ('0'..'9') ;
fragment EXPONENT : ('e'|'E') ('+'|'-')? ('0'..'9')+ ;
fragment HEX_DIGIT : ('0'..'9'|'a'..'f'|'A'..'F') ;

fragment ESC_SEQ
  : '\\' ('b'|'t'|'n'|'f'|'r'|'"'|'\''|'\\')
  | UNICODE_ESC
  | OCTAL_ESC
  ;

fragment OCTAL_ESC
  : '\\' ('0'..'3') ('0'..'7') ('0'..'7')
  | '\\' ('0'..'7') ('0'..'7')
  | '\\' ('0'..'7')
  ;

fragment UNICODE_ESC
  : '\\' 'u' HEX_DIGIT HEX_DIGIT HEX_DIGIT HEX_DIGIT
  ;

fragment RULETTER
  : '\u0400'..'\u04FF'
  ;

DOT
  : '.'
  ;

COMMA
  : ','
  ;

TILDA
  : '~'
  ;

NEWLINE
  : '\r'? '\n';
