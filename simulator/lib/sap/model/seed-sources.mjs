// Seeded ABAP and DDL source texts of the simulated A4H system.
import { CLASS_INCLUDE_TEMPLATES } from './templates.mjs';

export const CL_ABAP_TYPEDESCR = {
  main:
    'class CL_ABAP_TYPEDESCR definition\n  public\n  abstract\n  create public .\n\n' +
    'public section.\n\n  types:\n    abap_abstypename type c length 200 .\n' +
    '  constants TYPEKIND_INT type ABAP_TYPEKIND value \'I\' ##NO_TEXT.\n' +
    '  data KIND type ABAP_TYPECATEGORY read-only .\n\n' +
    '  class-methods DESCRIBE_BY_NAME\n    importing\n      !P_NAME type ANY\n' +
    '    returning\n      value(P_DESCR_REF) type ref to CL_ABAP_TYPEDESCR .\n' +
    '  methods GET_RELATIVE_NAME\n    returning\n      value(P_RELATIVE_NAME) type STRING .\n' +
    'protected section.\nprivate section.\nENDCLASS.\n\n\n\n' +
    'CLASS CL_ABAP_TYPEDESCR IMPLEMENTATION.\n\n' +
    '  METHOD describe_by_name.\n    " kernel implementation\n  ENDMETHOD.\n\n' +
    '  METHOD get_relative_name.\n    p_relative_name = absolute_name.\n  ENDMETHOD.\nENDCLASS.\n',
  ...CLASS_INCLUDE_TEMPLATES,
};

export const ZCL_TEST = {
  main:
    'CLASS zcl_test DEFINITION\n  PUBLIC\n  FINAL\n  CREATE PUBLIC .\n\n' +
    '  PUBLIC SECTION.\n    INTERFACES if_oo_adt_classrun.\n' +
    '    METHODS add\n      IMPORTING iv_a TYPE i\n                iv_b TYPE i\n' +
    '      RETURNING VALUE(rv_sum) TYPE i.\n  PROTECTED SECTION.\n  PRIVATE SECTION.\nENDCLASS.\n\n\n\n' +
    'CLASS zcl_test IMPLEMENTATION.\n\n  METHOD add.\n    rv_sum = iv_a + iv_b.\n  ENDMETHOD.\n\n' +
    '  METHOD if_oo_adt_classrun~main.\n    out->write( |2 + 3 = { add( iv_a = 2 iv_b = 3 ) }| ).\n' +
    '  ENDMETHOD.\nENDCLASS.\n',
  definitions: CLASS_INCLUDE_TEMPLATES.definitions,
  implementations: CLASS_INCLUDE_TEMPLATES.implementations,
  macros: CLASS_INCLUDE_TEMPLATES.macros,
  testclasses:
    'CLASS ltcl_test DEFINITION FINAL FOR TESTING\n  DURATION SHORT\n  RISK LEVEL HARMLESS.\n\n' +
    '  PRIVATE SECTION.\n    METHODS add_two_numbers FOR TESTING.\nENDCLASS.\n\n\n' +
    'CLASS ltcl_test IMPLEMENTATION.\n\n  METHOD add_two_numbers.\n' +
    '    cl_abap_unit_assert=>assert_equals( act = NEW zcl_test( )->add( iv_a = 2 iv_b = 3 ) exp = 5 ).\n' +
    '  ENDMETHOD.\nENDCLASS.\n',
};

export const ZCL_TEST_EXTRA = {
  main:
    'CLASS zcl_test_extra DEFINITION\n  PUBLIC\n  FINAL\n  CREATE PUBLIC .\n\n' +
    '  PUBLIC SECTION.\n    METHODS describe\n      RETURNING VALUE(rv_text) TYPE string.\n' +
    '  PROTECTED SECTION.\n  PRIVATE SECTION.\nENDCLASS.\n\n\n\n' +
    'CLASS zcl_test_extra IMPLEMENTATION.\n\n  METHOD describe.\n    DATA lv_unused TYPE i.\n' +
    "    rv_text = 'near-miss of ZCL_TEST'.\n  ENDMETHOD.\nENDCLASS.\n",
  ...CLASS_INCLUDE_TEMPLATES,
};

export const ZCL_SIM_FLIGHT_QUERY = {
  main:
    'CLASS zcl_sim_flight_query DEFINITION\n  PUBLIC\n  FINAL\n  CREATE PUBLIC .\n\n' +
    '  PUBLIC SECTION.\n    INTERFACES zif_sim_flight.\n  PROTECTED SECTION.\n  PRIVATE SECTION.\nENDCLASS.\n\n\n\n' +
    'CLASS zcl_sim_flight_query IMPLEMENTATION.\n\n  METHOD zif_sim_flight~get_flights.\n' +
    '    SELECT * FROM sflight WHERE carrid = @iv_carrid INTO TABLE @rt_flights.\n' +
    '  ENDMETHOD.\nENDCLASS.\n',
  ...CLASS_INCLUDE_TEMPLATES,
};

/** The released (transported) version of ZCL_SIM_FLIGHT_QUERY, for transport diffs. */
export const ZCL_SIM_FLIGHT_QUERY_RELEASED =
  'CLASS zcl_sim_flight_query DEFINITION\n  PUBLIC\n  FINAL\n  CREATE PUBLIC .\n\n' +
  '  PUBLIC SECTION.\n    INTERFACES zif_sim_flight.\n  PROTECTED SECTION.\n  PRIVATE SECTION.\nENDCLASS.\n\n\n\n' +
  'CLASS zcl_sim_flight_query IMPLEMENTATION.\n\n  METHOD zif_sim_flight~get_flights.\n' +
  '    SELECT * FROM sflight INTO TABLE @rt_flights.\n' +
  '  ENDMETHOD.\nENDCLASS.\n';

export const ZIF_SIM_FLIGHT = {
  main:
    'INTERFACE zif_sim_flight\n  PUBLIC .\n  TYPES tt_flights TYPE STANDARD TABLE OF sflight WITH EMPTY KEY.\n' +
    '  METHODS get_flights\n    IMPORTING iv_carrid TYPE s_carr_id\n' +
    '    RETURNING VALUE(rt_flights) TYPE tt_flights.\nENDINTERFACE.\n',
};

export const ZSIM_REPORT = {
  main: "REPORT zsim_report.\n\nSTART-OF-SELECTION.\n  WRITE / 'Hello from the simulated A4H system'.\n",
};

export const ZSIM_FG = { main: 'FUNCTION-POOL zsim_fg.\n' };

export const SFLIGHT = {
  main:
    "@EndUserText.label : 'Flight'\n@AbapCatalog.enhancement.category : #EXTENSIBLE_ANY\n" +
    '@AbapCatalog.tableCategory : #TRANSPARENT\n@AbapCatalog.deliveryClass : #A\n' +
    '@AbapCatalog.dataMaintenance : #RESTRICTED\ndefine table sflight {\n' +
    '  key mandt  : s_mandt not null;\n  key carrid : s_carr_id not null;\n' +
    '  key connid : s_conn_id not null;\n  key fldate : s_date not null;\n' +
    '  price      : s_price;\n  currency   : s_currcode;\n  planetype  : s_planetye;\n' +
    '  seatsmax   : s_seatsmax;\n  seatsocc   : s_seatsocc;\n}\n',
};

export const ZI_SIM_FLIGHT = {
  main:
    "@AccessControl.authorizationCheck: #NOT_REQUIRED\n@EndUserText.label: 'Flights'\n" +
    'define view entity ZI_SIM_FLIGHT\n  as select from sflight\n{\n  key carrid as Carrier,\n' +
    '  key connid as Connection,\n  key fldate as FlightDate,\n      price  as Price,\n' +
    '      currency as Currency\n}\n',
};

export const ZUI_SIM_FLIGHT = {
  main:
    "@EndUserText.label: 'Flight service'\ndefine service ZUI_SIM_FLIGHT {\n" +
    '  expose ZI_SIM_FLIGHT as Flight;\n}\n',
};

/** A class that a transport of another client (100) holds locked. */
export const ZCL_SIM_SHARED = {
  main:
    'CLASS zcl_sim_shared DEFINITION\n  PUBLIC\n  FINAL\n  CREATE PUBLIC .\n\n' +
    '  PUBLIC SECTION.\n  PROTECTED SECTION.\n  PRIVATE SECTION.\nENDCLASS.\n\n\n\n' +
    'CLASS zcl_sim_shared IMPLEMENTATION.\nENDCLASS.\n',
  ...CLASS_INCLUDE_TEMPLATES,
};
export const ZR_SIM_FLIGHT = {
  main:
    'managed implementation in class zbp_r_sim_flight unique;\nstrict ( 2 );\n\n' +
    'define behavior for ZI_SIM_FLIGHT alias Flight\npersistent table sflight\nlock master\n' +
    'authorization master ( instance )\n{\n  create;\n  update;\n  delete;\n}\n',
};

export const ZC_SIM_FLIGHT = {
  main:
    '@Metadata.layer: #CORE\nannotate entity ZI_SIM_FLIGHT with\n{\n' +
    '  @UI.lineItem: [{ position: 10 }]\n  Carrier;\n  @UI.lineItem: [{ position: 20 }]\n  Connection;\n}\n',
};

/** ZCL_SIM_ORDER: the active version, and DEVELOPER's draft of its main file (not activated). */
export const ZCL_SIM_ORDER = {
  main:
    'CLASS zcl_sim_order DEFINITION\n  PUBLIC\n  FINAL\n  CREATE PUBLIC .\n\n' +
    '  PUBLIC SECTION.\n    METHODS total\n      RETURNING VALUE(rv_total) TYPE i.\n' +
    '  PROTECTED SECTION.\n  PRIVATE SECTION.\nENDCLASS.\n\n\n\n' +
    'CLASS zcl_sim_order IMPLEMENTATION.\n\n  METHOD total.\n    rv_total = 100.\n  ENDMETHOD.\nENDCLASS.\n',
  ...CLASS_INCLUDE_TEMPLATES,
};

export const ZCL_SIM_ORDER_DRAFT =
  'CLASS zcl_sim_order DEFINITION\n  PUBLIC\n  FINAL\n  CREATE PUBLIC .\n\n' +
  '  PUBLIC SECTION.\n    METHODS total\n      RETURNING VALUE(rv_total) TYPE i.\n' +
  '  PROTECTED SECTION.\n  PRIVATE SECTION.\nENDCLASS.\n\n\n\n' +
  'CLASS zcl_sim_order IMPLEMENTATION.\n\n  METHOD total.\n    " draft: with the discount\n' +
  '    rv_total = 90.\n  ENDMETHOD.\nENDCLASS.\n';
